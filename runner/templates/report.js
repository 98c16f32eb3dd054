(function () {
  // The task table: free-text search and selects narrow the rows; a row's button opens its details.
  var table = document.querySelector("table.tasks");
  if (!table) return;
  var rows = Array.prototype.slice.call(table.querySelectorAll("tr.task"));
  var search = document.getElementById("search");
  var selects = Array.prototype.slice.call(document.querySelectorAll("select[data-field]"));
  var count = document.getElementById("shown");
  function apply() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute("data-search");
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      selects.forEach(function (sel) {
        if (!sel.value) return;
        var values = (row.getAttribute("data-" + sel.getAttribute("data-field")) || "").split(" ");
        if (values.indexOf(sel.value) < 0) ok = false;
      });
      row.hidden = !ok;
      var detail = document.getElementById(row.getAttribute("data-detail"));
      if (!ok && detail) detail.hidden = true;
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " shown";
  }
  search.addEventListener("input", apply);
  selects.forEach(function (sel) { sel.addEventListener("change", apply); });
  table.addEventListener("click", function (ev) {
    var button = ev.target.closest("button.toggle");
    if (!button) return;
    var detail = document.getElementById(button.getAttribute("aria-controls"));
    var open = detail.hidden;
    detail.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = open ? "▾" : "▸";
  });
  if (location.hash) {
    var target = document.querySelector('tr.task[data-anchor="' + location.hash.slice(1) + '"] button.toggle');
    if (target) target.click();
  }
  apply();
})();
