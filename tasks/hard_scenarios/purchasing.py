"""Hard scenarios of purchasing: supplier reviews, invoices against orders, orders to chase."""

from __future__ import annotations

from datetime import date, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, long_date, quarter_of, quarter_start, read_doc,
                                                  read_mail, read_sheet, scenario, send, set_cell, switch,
                                                  trigger_mail, earlier)
from officesim.testbed.worlds.model import World


def _late_window(w: World) -> tuple[date, date, str]:
    """This quarter, or the quarter just ended when this one is under four weeks old."""
    start = quarter_start(w.now.date())
    if (w.now.date() - start).days < 28:
        end = start - timedelta(days=1)
        start = quarter_start(end)
        return start, end, f"Q{quarter_of(start)}"
    return start, w.now.date(), f"Q{quarter_of(start)}"


@scenario("supplier-late-review", ["excel", "word", "email"])
def supplier_late_review(w: World) -> dict:
    """Put every supplier late twice or more in a quarter on review, as the purchasing policy says:
    a row each in the review log and a letter to each account manager listing the late orders."""
    start, end, q = _late_window(w)
    late: dict[str, list] = {}
    for po in w.pos:
        if po.delivered and start <= po.delivered <= end and po.days_late > 0:
            late.setdefault(po.supplier, []).append(po)
    flagged = sorted(s for s, pos in late.items() if len(pos) >= 2)
    head = w.head_of("Purchasing")
    log = w.paths["review_log"]
    when = "this quarter" if end == w.now.date() else f"last quarter ({q})"
    instruction = (f"Please run the supplier review for {when} the way our purchasing policy describes it: "
                   f"every supplier that delivered late at least twice goes on review. Log each one in the supplier "
                   f"review log below the earlier entries, in alphabetical order (today's date, the supplier, the "
                   f"reason with the number of late deliveries, my name) and write to its account manager "
                   f"listing the late orders with the promised and the actual delivery dates, copying {head.first} "
                   f"({head.role}). If nobody qualifies, don't log or send anything, just tell me.")
    notices = [m for m in w.mails if m.kind == "delay" and any(m.about == p.po for f in flagged for p in late[f])]
    gold = [switch("word"), read_doc(w.paths["purchasing_policy"]), switch("excel"), read_sheet(w.paths["pos"]),
            read_sheet(w.paths["suppliers"]), read_sheet(log)]
    if notices:  # the suppliers' own delay notices, read to confirm the dates (the sheet alone is enough)
        gold += [switch("email")] + [read_mail(w, m.id) for m in notices] + [switch("excel")]
    checks = []
    mails = []
    row = 4  # the log holds a header and two earlier reviews
    for s in flagged:
        sup = w.supplier(s)
        pos = sorted(late[s], key=lambda p: p.promised)
        reason = f"{len(pos)} late deliveries in {q}"
        for col, value in enumerate([iso(w.now), s, reason, w.user.name], start=1):
            gold.append(set_cell(log, row, col, value))
        checks += [check("xlsx_cell", f"logged {s}", file=log, cell=f"A{row}", value=iso(w.now)),
                   check("xlsx_cell", file=log, cell=f"B{row}", value=s),
                   check("xlsx_cell", file=log, cell=f"D{row}", value=w.user.name),
                   check("contains", file=log, text=[s], lines=[[s, len(pos)]])]
        lines = [f"- {p.po} ({p.item}): promised {long_date(p.promised)}, delivered {long_date(p.delivered)}"
                 for p in pos]
        body = (f"Dear {sup.contact.split()[0]},\n\nUnder our purchasing policy {s} is now on supplier review: "
                f"these deliveries in {q} arrived late:\n" + "\n".join(lines)
                + f"\n\nPlease let us know what you will change.\n\nKind regards,\n{w.user.name}\n{w.company}")
        mails.append(send(w, [sup.email], f"Supplier review: late deliveries in {q}", body, cc=[head.email]))
        checks.append(check("email_sent", f"wrote to {s}", sender=w.user.email, to=[sup.email], cc=[head.email],
                            body_contains=[x for p in pos for x in (p.po, iso(p.promised), iso(p.delivered))],
                            lines=[[p.po, iso(p.promised), iso(p.delivered)] for p in pos]))
        row += 1
    checks.append(check("xlsx_row", file=log, row=2, values=["2026-03-30", w.suppliers[3].name,
                                                             "Two late deliveries in Q1", head.name]))
    answer = None
    if flagged:
        gold += [switch("email")] + mails
    else:
        answer = f"No supplier delivered late twice or more in {q}."
        checks.append(check("answer_contains", "told nobody qualifies", text=["no supplier"]))
    task = {"instruction": instruction, "gold": gold, "checks": checks,
            "free": [log] if flagged else []}
    if answer:
        task["answer"] = answer
    return task
