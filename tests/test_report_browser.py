"""report.html and compare.html in a real headless Chromium (Playwright): the charts render with a
size, typing in the search box narrows the rows, a row opens its details with the task's instruction
above its checks and failure labels that say what happened, a flipped task opens its two runs side by
side, and the pages load nothing from the network and raise no script error.

The browser is Playwright's own build when installed, else the system's Chromium (`make browser`,
which `make test` runs, provides one). Without any the tests skip, except under CI, where they fail.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from officesim.runner.compare import write_compare
from tests import _report_runs as fx

SYSTEM_BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the browser tests: `make browser` installs Chromium)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        bundled = Path(p.chromium.executable_path)
        system = next((shutil.which(b) for b in SYSTEM_BROWSERS if shutil.which(b)), None)
        if not bundled.exists() and system is None:
            _unavailable("no Chromium: neither Playwright's build nor a system chromium (run `make browser`)")
        chromium = p.chromium.launch(headless=True, executable_path=None if bundled.exists() else system)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("browser")
    a, b = fx.write_runs(root)
    write_compare(a, b, root / "cmp")
    return {"report": b / "report.html", "compare": root / "cmp" / "compare.html"}


@pytest.fixture
def open_page(browser):
    """Open a page from disk; on leaving, no script error and no request beyond the file itself."""
    opened = []

    def go(path: Path):
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        errors, requests = [], []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda req: requests.append(req.url))
        page.goto(path.as_uri())
        opened.append((page, errors, requests))
        return page

    yield go
    for page, errors, requests in opened:
        assert errors == []
        assert [u for u in requests if not u.startswith(("file:", "data:", "about:"))] == []
        page.close()


def visible_rows(page) -> list[str]:
    return [row.get_attribute("id") for row in page.locator("tr.task").all() if row.is_visible()]


def assert_charts_render(page, kinds: dict[str, int]) -> None:
    for kind, count in kinds.items():
        charts = page.locator(f"svg.chart.{kind}")
        assert charts.count() == count, kind
        for i in range(count):
            chart = charts.nth(i)
            chart.scroll_into_view_if_needed()
            box = chart.bounding_box()
            assert box and box["width"] > 50 and box["height"] > 10, (kind, i, box)
    widths = [b["width"] for b in (r.bounding_box() for r in page.locator("svg.chart rect.bar").all()) if b]
    assert any(w > 1 for w in widths), "no bar has a visible length"


def test_report_charts_render(open_page, pages):
    page = open_page(pages["report"])
    assert_charts_render(page, {"rates": 4, "histogram": 3})
    hat = page.locator("#chart-app g", has_text="excel").locator("rect.hat").bounding_box()  # pass^2 of excel: 1/3
    track = page.locator("#chart-app g", has_text="excel").locator("rect.track").bounding_box()
    assert hat and track and hat["width"] == pytest.approx(track["width"] / 3, abs=1)


def test_report_filter_narrows_the_rows(open_page, pages):
    page = open_page(pages["report"])
    everything = visible_rows(page)
    assert len(everything) == 12 and page.locator("#shown").inner_text() == "12 of 12 shown"
    page.locator("#search").fill("calendar")  # t-event-001's app, two trials
    assert visible_rows(page) == ["t-t-event-001-1", "t-t-event-001-2"]
    assert page.locator("#shown").inner_text() == "2 of 12 shown"
    page.locator("#search").fill("")
    page.locator("select[data-field=result]").select_option("pass")
    passing = visible_rows(page)
    assert 0 < len(passing) < 12 and "t-t-cells-001-1" not in passing and "t-t-doc-001-1" in passing
    page.locator("select[data-field=split]").select_option("train")
    assert visible_rows(page) == ["t-t-doc-001-1", "t-t-doc-001-2"]


def test_report_task_expands(open_page, pages):
    page = open_page(pages["report"])
    detail = page.locator("#t-t-cells-001-1-detail")
    assert not detail.is_visible()
    button = page.locator("#t-t-cells-001-1 button.toggle")
    button.click()
    assert detail.is_visible() and button.get_attribute("aria-expanded") == "true"
    assert detail.locator("table.diff.cells td.left").first.inner_text() == "'29100'"
    assert "Gold solution (2 actions)" in detail.inner_text()
    instruction = detail.locator("blockquote.instruction")
    assert instruction.is_visible() and instruction.inner_text() == fx.INSTRUCTIONS["t-cells-001"]
    checks = detail.get_by_role("heading", name="Checks (0/1)")
    assert instruction.bounding_box()["y"] < checks.bounding_box()["y"]  # the instruction above the checks
    assert detail.locator(".labels").inner_text() == "(checks, collateral)"
    detail.locator("details.transcript summary").click()
    assert detail.locator(".msg.tool pre").inner_text() == "Set B9 to 29100."
    button.click()
    assert not detail.is_visible()


def test_report_labels_say_what_happened(open_page, pages):
    page = open_page(pages["report"])
    label = page.locator("#t-t-event-001-1 small.labels")  # the gold's event not made, nothing else changed
    assert label.is_visible() and label.inner_text() == "checks, missing"
    assert "side_effects" not in page.locator("table.tasks").inner_text()
    run = page.locator("table.run")
    assert run.locator("tr", has_text="wall time (elapsed)").locator("td").inner_text() == "300.0 s (5 min 0 s)"
    assert run.locator("tr", has_text="episode time (summed)").locator("td").inner_text().startswith("18.0 s")


def test_compare_flip_opens_both_runs_side_by_side(open_page, pages):
    page = open_page(pages["compare"])
    page.locator("#lost a", has_text="t-cells-001").click()  # the flip list links to the task's row
    page.locator("#c-t-cells-001 button.toggle").click()
    detail = page.locator("#c-t-cells-001-detail")
    assert detail.locator("blockquote.instruction").inner_text() == fx.INSTRUCTIONS["t-cells-001"]
    a, b = detail.locator(".run-side").all()
    box_a, box_b = a.bounding_box(), b.bounding_box()
    assert box_a["x"] + box_a["width"] <= box_b["x"] and abs(box_a["y"] - box_b["y"]) < 2  # side by side
    assert a.locator("h4 .pass").inner_text() == "pass" and b.locator(".labels").inner_text() == "(checks, collateral)"
    assert b.locator("table.diff.cells td.left").inner_text() == "'29100'"
    assert a.locator("ol.steps > li").count() == 2 == b.locator("ol.steps > li").count()
    assert "p = 1" in page.locator("table.overall").inner_text()


def test_compare_page(open_page, pages):
    page = open_page(pages["compare"])
    assert_charts_render(page, {"pairs": 4})
    assert len(visible_rows(page)) == 5
    page.locator("select[data-field=change]").select_option("gained")
    assert visible_rows(page) == ["c-t-mail-001"]
    page.locator("select[data-field=change]").select_option("")
    page.locator("#search").fill("cells")
    assert visible_rows(page) == ["c-t-cells-001"]
    page.locator("#c-t-cells-001 button.toggle").click()
    detail = page.locator("#c-t-cells-001-detail")
    assert detail.is_visible() and "Budget!B9: expected 33330, found 29100" in detail.inner_text()
    detail.get_by_text("details in B's report").click()  # to the task's row in B's report, opened
    page.wait_for_url("**/b/report.html#t-t-cells-001-1")
    assert page.locator("#t-t-cells-001-1-detail").is_visible()
    assert page.locator("#t-t-cells-001-2-detail").is_hidden()
