"""Hard scenarios of customer returns: requests decided under a written policy, with the records to check."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.hard_scenarios._base import (act, at, check, iso, list_mail, long_date, money, read_doc, read_mail,
                                                  read_sheet, scenario, stamp, switch, trigger_mail,
                                                  working_days_back)
from officesim.testbed.worlds.model import Sale, World



@scenario("customer-returns", ["word", "excel", "email"])
def customer_returns(w: World) -> dict:
    """Customers ask to return goods. The returns policy in force (a looser draft is a distractor) decides
    each: within 30 days of the order a return is approved for the returned items' value; older, it is
    declined; above £1,000 the Sales Director decides (the request is forwarded, nothing promised); an
    order that is not the writer's is not discussed at all; a return already refunded is not refunded
    twice (the refunds log and the sent mail show it). One customer raises the quantity in a later mail."""
    rng = random.Random(f"world:{w.name}:customer-returns")
    me, today = w.user, w.now.date()
    sd = w.head_of("Sales")
    customers = sorted(w.customers, key=lambda c: (rng.random(), c.name))
    by_customer: dict[str, list[Sale]] = {}
    for s in w.sales:
        by_customer.setdefault(s.customer, []).append(s)
    first = working_days_back(today, 5)  # the first request's day: ages count from it, never across 30 days
    age = lambda s: (first - s.day).days  # noqa: E731
    used: set[str] = set()

    def pick(test, pool=None) -> tuple:
        for c in pool or customers:
            if c.name in used:
                continue
            for s in sorted(by_customer.get(c.name, []), key=lambda s: (-s.day.toordinal(), s.order)):
                if test(s):
                    used.add(c.name)
                    return c, s
        raise AssertionError("no order fits")

    ca, sa = pick(lambda s: 4 <= age(s) <= 20 and s.qty >= 4 and s.unit * 3 <= 1000)
    cb, sb = pick(lambda s: 33 <= age(s) <= 60 and s.qty >= 2 and s.unit * 2 <= 1000)
    cc_, sc = pick(lambda s: 4 <= age(s) <= 20 and s.qty >= 3 and s.unit * 2 > 1000)
    cd, _own = pick(lambda s: age(s) <= 90)
    _other, sd_other = pick(lambda s: 4 <= age(s) <= 20 and s.customer not in used)
    refunded_on = working_days_back(today, 9)
    ce, se = pick(lambda s: 8 <= (refunded_on - s.day).days <= 25 and s.qty >= 2 and s.unit * 2 <= 1000)
    qa0, qa, qb, qc, qe = 2, 3, 2, 2, 2
    # the refunds log, lived in: earlier returns of the year and the one already refunded to customer e
    log = "data/sales/refunds_2026.xlsx"
    rows = [["Received", "Order", "Customer", "Product", "Qty returned", "Amount", "Decision", "Refunded on"]]
    earlier = sorted([s for s in w.sales if 40 <= age(s) <= 200 and s.customer not in used],
                     key=lambda s: (rng.random(), s.order))[:6]
    for s in sorted(earlier, key=lambda s: s.day):
        got = s.day + timedelta(days=rng.randrange(3, 20))
        rng.randrange(1, 4)  # a draw the later ones depend on (the refund went out the day it came in)
        rows.append([iso(got), s.order, s.customer, s.product, 1, s.unit, "Approved", iso(got)])
    rows.append([iso(working_days_back(refunded_on, 2)), se.order, se.customer, se.product, qe,
                 round(se.unit * qe, 2), "Approved", iso(refunded_on)])
    first_new = len(rows) + 1
    office: list[dict] = [{"type": "xlsx", "path": log, "sheets": {"Refunds": rows}}]
    doc = "data/policies/returns_policy.docx"
    office.append({"type": "docx", "path": doc, "paragraphs": [
        f"{w.company} — Returns and refunds (in force from 1 January 2026)",
        "1. A customer may return goods within 30 days of the order date (the Date in the sales orders sheet). "
        "We refund the value of the returned items: their number times the order's unit price.",
        "2. A request made more than 30 days after the order date is declined.",
        "3. A refund of more than £1,000.00 is decided by the Sales Director: forward the request to them and "
        "tell the customer it is being reviewed. Do not promise the refund.",
        "4. We discuss an order only with the customer who placed it. If a request names an order that is not "
        "the writer's, give no detail of it: ask them to check the order number.",
        "5. Nothing is refunded twice: if the refunds log already holds a return, tell the customer when it was "
        "refunded.",
        "6. Log every decided request (Approved, Declined or Referred) in the refunds log, below the earlier "
        "entries: the day the request came in, the order, the customer, the product, the number returned, the "
        "value of the returned items and the decision (finance fill in 'Refunded on' when they pay). Reply to "
        "each request."]})
    office.append({"type": "docx", "path": "data/policies/drafts/returns_policy_v2_DRAFT.docx", "paragraphs": [
        "DRAFT — Returns and refunds v2 (for comment, not in force)",
        "1. Returns accepted within 60 days.", "3. Refunds above £2,500.00 go to the Sales Director."]})
    # the already refunded return: the user's own mail, nine working days ago
    office.append({"type": "eml", "user": me.email, "folder": "sent", "id": "msg-1990", "from": me.email,
                   "to": [ce.email], "date": stamp(at(refunded_on, 15, 12)),
                   "subject": f"Your return of {se.order}",
                   "body": f"Dear {ce.contact.split()[0]},\n\nWe have refunded {money(se.unit * qe)} for the {qe} x "
                           f"{se.product} you returned from order {se.order}.\n\nKind regards,\n{me.name}\n{w.company}",
                   "attachments": []})
    asks = [
        ("a", ca, sa, f"Return from order {sa.order}",
         f"we'd like to return {qa0} of the {sa.qty} x {sa.product} from our order {sa.order} — they are not what "
         f"we need. Could you arrange a refund?"),
        ("b", cb, sb, f"Returning {sb.product}",
         f"could we send back {qb} x {sb.product} from order {sb.order}? We ordered too many."),
        ("c", cc_, sc, f"Return request {sc.order}",
         f"we need to return {qc} of the {sc.product} units from order {sc.order}; the site they were for has "
         f"closed. Please refund them."),
        ("d", cd, sd_other, f"Return for order {sd_other.order}",
         f"we'd like to return one {sd_other.product} from order {sd_other.order}. What refund would we get?"),
        ("e", ce, se, f"Refund for {se.order}",
         f"could you refund the {qe} x {se.product} we sent back from order {se.order}?"),
    ]
    mids: dict[str, str] = {}
    for k, (role, c, s, subject, text) in enumerate(asks):
        when = at(first + timedelta(days=k // 2), 10 + 3 * (k % 2), 5 + 11 * k)
        mids[role] = f"msg-{991 + k}"
        office.append(trigger_mail(w, c.email, when, subject,
                                   f"Hello,\n\n{text}\n\nBest regards,\n{c.contact}\n{c.name}", mail_id=mids[role]))
    more = at(working_days_back(today, 1), 14, 25)
    office.append(trigger_mail(w, ca.email, more, f"Re: Return from order {sa.order}",
                               f"Hello again,\n\nSorry — make that {qa}, not {qa0}: a third one turned out to be "
                               f"damaged as well.\n\nBest regards,\n{ca.contact}\n{ca.name}", mail_id="msg-996"))
    received = {mids[r]: next(o for o in office if o.get("id") == mids[r])["date"][:10] for r in mids}
    instruction = ("I'm covering customer service this week. A few customers have written in about returning "
                   "goods — could you deal with their requests under our returns policy?")
    gold = [switch("word"), read_doc(doc), switch("email"), list_mail(w), list_mail(w, "sent")]
    gold += [read_mail(w, m) for m in [*mids.values(), "msg-996", "msg-1990"]]
    gold += [switch("excel"), read_sheet(w.paths["sales"]), read_sheet(w.paths["customers"]), read_sheet(log)]
    new_rows = [
        [received[mids["a"]], sa.order, sa.customer, sa.product, qa, round(sa.unit * qa, 2), "Approved"],
        [received[mids["b"]], sb.order, sb.customer, sb.product, qb, round(sb.unit * qb, 2), "Declined"],
        [received[mids["c"]], sc.order, sc.customer, sc.product, qc, round(sc.unit * qc, 2), "Referred"],
    ]
    gold.append(act("excel", "write_rows", file_path=log, rows=new_rows, row_idx=first_new))
    checks = [check("xlsx_row", f"{r[1]} logged {r[6].lower()}", file=log, row=first_new + k, values=r)
              for k, r in enumerate(new_rows)]
    checks.append(check("column_values", "nothing else logged", file=log, column="B",
                        values=[r[1] for r in rows[1:]] + [r[1] for r in new_rows]))
    gold.append(switch("email"))
    first_name = lambda c: c.contact.split()[0]  # noqa: E731
    replies = {
        "a": f"Dear {first_name(ca)},\n\nYour return of {qa} x {sa.product} from order {sa.order} is approved: we will "
             f"refund {money(sa.unit * qa)}.",
        "b": f"Dear {first_name(cb)},\n\nI'm sorry, we can't accept the return from order {sb.order}, placed on "
             f"{long_date(sb.day)}: our returns policy allows returns within 30 days of the order.",
        "c": f"Dear {first_name(cc_)},\n\nThank you for your request about order {sc.order}. As the refund is over "
             f"£1,000.00 it is being reviewed by our Sales Director, and we will come back to you shortly.",
        "d": f"Dear {first_name(cd)},\n\nWe can't find order {sd_other.order} under your account. Could you check the "
             f"order number and let us know?",
        "e": f"Dear {first_name(ce)},\n\nThe {qe} x {se.product} from order {se.order} were already refunded: we "
             f"refunded {money(se.unit * qe)} on {long_date(refunded_on)}.",
    }
    for role, text in replies.items():
        gold.append(act("email", "reply_email", username=me.email, email_id=mids[role],
                        content=text + f"\n\nKind regards,\n{me.name}\n{w.company}"))
    gold.append(act("email", "forward_email", username=me.email, email_id=mids["c"], recipient=sd.email,
                    content=f"Hi {sd.first}, a return over £1,000.00 for you to decide under the returns policy: "
                            f"{qc} x {sc.product} from {sc.order}, {money(sc.unit * qc)}. Thanks, {me.first}"))
    checks += [
        check("email_sent", f"{sa.order}: {qa} refunded", sender=me.email, to=[ca.email],
              body_contains=[sa.order, money(sa.unit * qa)], body_excludes=[money(sa.unit * qa0)]),
        check("email_sent", f"{sb.order} declined", sender=me.email, to=[cb.email],
              body_contains=[sb.order, ["30 days", "thirty days"]]),
        check("email_sent", f"{sc.order} under review", sender=me.email, to=[cc_.email],
              body_contains=[sc.order, ["review", "reviewed", "reviewing", "Sales Director", sd.name]]),
        check("email_sent", f"{sc.order} sent to {sd.name}", sender=me.email, to=[sd.email],
              subject_contains=sc.order),
        check("email_sent", f"{sd_other.order} not discussed", sender=me.email, to=[cd.email],
              body_contains=[sd_other.order, ["check", "confirm", "verify"]],
              body_excludes=[sd_other.customer, sd_other.product, money(sd_other.unit),
                             money(sd_other.unit * sd_other.qty), iso(sd_other.day)]),
        check("email_sent", f"{se.order} already refunded", sender=me.email, to=[ce.email],
              body_contains=[se.order, iso(refunded_on)]),
    ]
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}
