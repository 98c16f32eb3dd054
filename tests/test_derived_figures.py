"""The closed-world reading accepts a figure worked out in one step from values stated beside it, and
nothing else: a bare second value, a wrong result, or a result of an unsupported operand stays false."""

from datetime import date, datetime

import pytest

from officesim.evaluators.claims import Support, stray_claims
from officesim.evaluators.derived import Operand, days_between, one_step, tolerance, total_of

NOW = datetime(2026, 11, 20, 9)


def strays(text: str, expected: list, texts: tuple = ()) -> list[str]:
    support = Support(expected=expected, texts=list(texts))
    return [c.text for c in stray_claims(text, support, year=2026, now=NOW, directory=None)]


@pytest.mark.parametrize("text, expected, texts", [
    ("Your hotel claim of £600 for 4 nights comes to £150 a night.", ["£600", "4"], ()),
    ("Your hotel claim of £600 for 7 nights is £85.71 per night.", ["£600", "7"], ()),
    ("Your claim of £740 is £240 over the cap of £500.", ["£740"], ("cap of £500",)),
    ("PO-1001 was promised on 3 November and delivered on 10 November, 7 days late.", ["3 November", "10 November", 12], ()),
    ("INV-204 was due on 5 November and is 15 days overdue.", ["5 November", 12], ()),
    ("- A: £100.50\n- B: £200.25\n- C: £300.00\n\nTotal: £600.75", ["£100.50", "£200.25", "£300.00"], ()),
    ("Spend rose from £400 to £500, up 25%.", ["£400", "£500"], ()),
])
def test_a_figure_worked_out_from_stated_values_is_supported(text, expected, texts):
    assert strays(text, expected, texts) == []


@pytest.mark.parametrize("text, expected, texts, stray", [
    ("Your claim of £740 (£900 with the hotel) is over the cap.", ["£740"], ("cap of £500",), "£900"),
    ("Your claim of £740 (£240) stands.", ["£740"], ("cap of £500",), "£240"),  # no word says it is worked out
    ("Your claim of £740 is £250 over the cap of £500.", ["£740"], ("cap of £500",), "£250"),  # wrong result
    ("Your claim of £740 is £240 over the cap of £520.", ["£740"], ("cap of £500",), "£520"),  # false operand
    ("PO-1001 was promised on 3 November and delivered on 10 November, 9 days late.", ["3 November", "10 November", 12], (), "9"),
    ("- A: £100.50\n- B: £200.25\n- C: £300.00\n\nTotal: £610.75", ["£100.50", "£200.25", "£300.00"], (), "£610.75"),
])
def test_a_wrong_or_unsignalled_figure_stays_false(text, expected, texts, stray):
    assert stray in strays(text, expected, texts)


def test_an_unsupported_operand_derives_nothing():
    # 240 = 740 - 500 holds, but 500 is false here (the cap is 520): the 500 is reported, and 240 with it
    found = strays("Your claim of £740 is £240 over the cap of £500.", ["£740"], ("cap of £520",))
    assert "£500" in found and "£240" in found


def test_the_arithmetic():
    assert tolerance("£85.71") == pytest.approx(0.005, abs=1e-6) and tolerance("86") == pytest.approx(0.5, abs=1e-6)
    assert one_step(150, "150", [Operand(600, "GBP"), Operand(4)]) == "600 / 4"
    assert one_step(150, "150", [Operand(600, "GBP"), Operand(150, "GBP")]) is None  # the value itself is no operand
    assert one_step(600, "600", [Operand(600, "GBP"), Operand(1)]) is None
    assert one_step(100, "100", [Operand(100, "GBP"), Operand(0)]) is None
    assert one_step(20, "20", [Operand(100, "GBP"), Operand(120, "EUR")], currency="GBP") is None  # currencies differ
    assert one_step(25, "25", [Operand(400), Operand(500)], percent=True) == "500 vs 400"
    assert total_of(6, "6", [Operand(1), Operand(2), Operand(3)], None)
    assert not total_of(3, "3", [Operand(1), Operand(2)], None)  # two amounts are a pair, not a list
    assert days_between(7, [date(2026, 11, 3), date(2026, 11, 10)])
    assert days_between(8, [date(2026, 11, 3), date(2026, 11, 10)])  # both ends counted
    assert not days_between(9, [date(2026, 11, 3), date(2026, 11, 10)])
