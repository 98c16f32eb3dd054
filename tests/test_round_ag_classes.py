"""Classes read since round AD (issue 44): true statements that round AD's right outcomes failed with, and the
false twins that must still fail. Pure functions over small texts and records."""

from __future__ import annotations

from officesim.evaluators.records import build_records
from officesim.evaluators.statements import cut
from officesim.evaluators.verdicts import range_end_problems


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _ranges(text: str, records) -> list:
    out = []
    for st in cut(text):
        ids = [i for k in records.keys_in(st.text) for i in records.by_key.get(k, ())]
        out += range_end_problems(st, ids, records, 2026)
    return out


def test_a_range_in_day_month_numbers_is_read_in_the_reading_its_row_gives():
    rows = [["Customer", "First message", "Last message"], ["Juniper Dental", "2026-10-05", "2026-11-10"]]
    records = build_records({"data/escalations.xlsx": _book(("Sheet1", rows))}, 2026)
    # 05/10/2026 is 5 October here, not 10 May
    assert not _ranges("Juniper Dental - 4 messages between 05/10/2026 and 10/11/2026", records)
    assert _ranges("Juniper Dental - 4 messages between 06/10/2026 and 10/11/2026", records)
