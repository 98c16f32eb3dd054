"""Report v2 and run comparison without a browser: summary.json's breakdowns, the diff view of the
office differences, the exact McNemar figures, compare.json's flips (also against a merged run), the
report's charts and details, and `officesim report --compare`."""

from __future__ import annotations

import json
import math
import re
from html import unescape

import pytest

from officesim.runner.breakdown import describe, histogram, score_histogram
from officesim.runner.cli import main as cli_main
from officesim.runner.compare import compare_records, compare_runs, mcnemar_exact, p_text, paired_interval, render
from officesim.runner.diffview import change_diffs, mail_fields, outcome_diffs
from officesim.runner.merge import merge_runs
from officesim.runner.results import read_results
from tests import _report_runs as fx


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return fx.write_runs(tmp_path_factory.mktemp("runs"))


def summary_of(run) -> dict:
    return json.loads((run / "summary.json").read_text())


# ---- summary.json ---------------------------------------------------------------------------------
def test_summary_breaks_down_by_app_scenario_split_with_pass_hat_k(runs):
    _, b = runs
    s = summary_of(b)
    # excel: t-cells (fail, fail), t-mail (pass, pass), t-three (pass, fail)
    assert s["by_app"]["excel"] == {"total": 6, "tasks": 3, "passed": 3, "pass_rate": 0.5,
                                    "pass_hat_k": {"1": 0.5, "2": round(1 / 3, 4)}}
    assert s["by_split"]["train"] == {"total": 2, "tasks": 1, "passed": 2, "pass_rate": 1.0, "pass_hat_k": {"1": 1.0, "2": 1.0}}
    assert s["by_split"]["test"]["pass_hat_k"] == {"1": 0.5, "2": 0.4}
    assert s["by_scenario"]["pdf-read"]["passed"] == 2 and set(s["by_scenario"]) == {t[2] for t in fx.TASKS.values()}
    assert s["by_category"]["3"]["pass_hat_k"] == {"1": 0.5, "2": 0.0}
    assert s["distributions"]["score_histogram"] == [5, 0, 0, 0, 0, 0, 0, 0, 0, 7]
    assert s["distributions"]["tokens"]["max"] == 220 and s["distributions"]["steps"]["median"] == 3.5


def test_summary_keeps_its_older_keys_and_has_no_pass_hat_k_for_one_trial(runs):
    a, _ = runs
    s = summary_of(a)
    for key in ("total", "passed", "pass_rate", "passed_checks_only", "by_category", "failed_components",
                "side_effect_rate", "missing_rate", "pass_hat_k", "process", "ask", "statuses", "tokens", "trials"):
        assert key in s
    assert s["pass_hat_k"] is None and "pass_hat_k" not in s["by_app"]["excel"]
    # graded and errors: the episodes with a verdict (the rates' denominator) and those without one
    assert set(s["by_category"]["1"]) == {"total", "graded", "errors", "passed", "pass_rate", "passed_checks_only",
                                          "pass_rate_checks_only"}


def test_summary_keeps_the_runs_wall_time_apart_from_the_summed_episode_time(runs):
    from officesim.runner.summary import elapsed_s

    s = summary_of(runs[1])
    assert s["elapsed_s"] == 300.0  # run.json: 10:00 to 10:05 (no elapsed_s measured: the fixture writes none)
    assert s["wall_time_s"] == 18.0  # 12 episodes of 1.5 s
    assert elapsed_s({"elapsed_s": 41.5, "started": "2026-01-01T10:00:00+0000"}) == 41.5
    assert elapsed_s({"started": "2026-01-01T10:00:00+0000"}) is None and elapsed_s({}) is None


def test_records_without_scenario_or_split_group_as_unknown(runs):
    from officesim.runner.breakdown import breakdowns

    old = [r.model_copy(update={"scenario": None, "split": None}) for r in read_results(runs[0])]
    groups = breakdowns(old)
    assert list(groups["by_scenario"]) == ["unknown"] and list(groups["by_split"]) == ["unknown"]


def test_describe_histogram_and_score_bins():
    assert describe([5, 1, 3, 2, 4, 10, 7, 8, 9, 6]) == {"min": 1, "median": 5.5, "mean": 5.5, "p90": 9, "max": 10}
    assert describe([])["median"] is None
    assert histogram([1, 1, 2, 5]) == [("1", 2), ("2", 1), ("3", 0), ("4", 0), ("5", 1)]
    wide = histogram(list(range(0, 100)), bins=4)
    assert [c for _, c in wide] == [25, 25, 25, 25] and wide[0][0] == "0–24"
    tokens = histogram([0, 5000, 2_600_000], bins=12)  # large numbers in short labels
    assert tokens[0] == ("0–217k", 2) and tokens[-1] == ("2.38M–2.6M", 1)

    class R:  # score_histogram reads .score only
        def __init__(self, score):
            self.score = score

    assert score_histogram([R(0.0), R(0.1), R(0.95), R(1.0), R(0.3333)]) == [1, 1, 0, 1, 0, 0, 0, 0, 0, 2]


# ---- the diff view ---------------------------------------------------------------------------------
def test_cells_mail_events_and_changes_read_into_sides():
    (cells,) = outcome_diffs([fx.CELL])
    assert (cells.path, cells.kind) == ("data/budget.xlsx", "cells")
    assert [(r.where, r.left, r.right) for r in cells.rows] == [("Budget!B9", "'29100'", "'33330'")]
    (mail,) = outcome_diffs([fx.MAIL_EXTRA, fx.MAIL_MISSING])  # one file, two rows
    assert mail.kind == "mail" and [(r.left is None, r.right is None) for r in mail.rows] == [(False, True), (True, False)]
    assert mail.rows[1].right == "to marco@lumen.test: 'June expenses total'"
    assert mail.rows[1].right_fields == [("to", "marco@lumen.test"), ("subject", "'June expenses total'")]
    assert mail.rows[0].left_fields[0] == ("to", "chloe@lumen.test") and mail.rows[0].right_fields is None
    assert mail_fields("to a@x.test, b@x.test cc c@x.test with q.pdf, r.pdf: 'Re: terms; prices'") == [
        ("to", "a@x.test, b@x.test"), ("cc", "c@x.test"), ("attachments", "q.pdf, r.pdf"), ("subject", "'Re: terms; prices'")]
    assert mail_fields("an unreadable file (eml)") is None
    (event,) = outcome_diffs([fx.EVENT])
    assert event.kind == "events" and event.rows[0].where == "event" and "room aspen" in event.rows[0].right
    (doc,) = outcome_diffs([fx.PARAGRAPHS])
    assert doc.kind == "paragraphs" and doc.rows[0].note == "2 new or rewritten paragraph(s), the correct outcome has 1"
    (change,) = change_diffs([fx.CHANGE])
    assert [(r.where, r.left, r.right) for r in change.rows] == [("Budget!A9", None, "'Total'"), ("Budget!B9", None, "29100")]


def test_values_holding_separators_stay_whole():
    (cells,) = outcome_diffs(["a.xlsx: differs from the correct outcome (S!A1 is 'x; y', correct: 'z'; S!A2 is empty, correct: '1')"])
    assert [(r.where, r.left, r.right) for r in cells.rows] == [("S!A1", "'x; y'", "'z'"), ("S!A2", "empty", "'1'")]
    (ev,) = change_diffs(["calendar/g.ics: modified (event 'Sync' changed: attendees ('a@x.test', 'b@x.test') -> "
                          "('c@x.test',), start '2026-11-12 15:00:00' -> '2026-11-13 15:00:00')"])
    assert [(r.where, r.left, r.right) for r in ev.rows] == [
        ("event 'Sync' attendees", "('a@x.test', 'b@x.test')", "('c@x.test',)"),
        ("event 'Sync' start", "'2026-11-12 15:00:00'", "'2026-11-13 15:00:00'")]
    (odd,) = outcome_diffs(["x.bin: something unforeseen"])
    assert odd.rows[0].note == "something unforeseen" and odd.sentences == ["x.bin: something unforeseen"]


# ---- McNemar and the interval ----------------------------------------------------------------------
@pytest.mark.parametrize("gained, lost, p", [(0, 0, 1.0), (3, 3, 1.0), (0, 5, 2 / 32), (1, 9, 2 * 11 / 1024),
                                             (10, 0, 2 / 1024), (2, 1, 1.0)])
def test_mcnemar_exact_by_hand(gained, lost, p):
    assert mcnemar_exact(gained, lost) == pytest.approx(p)
    assert mcnemar_exact(lost, gained) == pytest.approx(p)  # two-sided: symmetric


def test_mcnemar_exact_agrees_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    for gained in range(0, 16):
        for lost in range(0, 16):
            if gained + lost:
                want = stats.binomtest(min(gained, lost), gained + lost, 0.5).pvalue
                assert mcnemar_exact(gained, lost) == pytest.approx(want, rel=1e-9), (gained, lost)


def test_paired_interval():
    lo, hi = paired_interval([-1, 1, 0, 0, 0.5])  # mean 0.1, sd sqrt(0.55)
    half = 1.959964 * math.sqrt(0.55) / math.sqrt(5)
    assert (lo, hi) == (pytest.approx(0.1 - half, abs=1e-4), pytest.approx(0.1 + half, abs=1e-4))
    assert paired_interval([1.0] * 3 + [0.0]) == (pytest.approx(0.26, abs=0.01), 1.0)  # clipped to a rate change
    assert paired_interval([1.0]) is None


# ---- compare.json ----------------------------------------------------------------------------------
def test_compare_pairs_tasks_and_lists_flips_both_ways(runs):
    data = compare_runs(*runs)
    assert data["flips"] == {"gained": ["t-mail-001"], "lost": ["t-cells-001"]}
    assert data["only_in_a"] == ["t-only-a-001"] and data["only_in_b"] == ["t-only-b-001"]
    assert data["paired_tasks"] == 5
    changes = {t["task_id"]: t["change"] for t in data["tasks"]}
    # t-three passes one of B's two trials: not every trial, so not gained
    assert changes == {"t-cells-001": "lost", "t-mail-001": "gained", "t-event-001": "both_fail",
                       "t-doc-001": "both_pass", "t-three-001": "both_fail"}
    o = data["overall"]
    assert (o["a_pass_rate"], o["b_pass_rate"], o["delta"], o["gained"], o["lost"], o["mcnemar_p"]) == (0.4, 0.5, 0.1, 1, 1, 1.0)
    assert o["ci95"] == [pytest.approx(-0.55, abs=1e-4), pytest.approx(0.75, abs=1e-4)]
    one_app = data["by_category"]["1"]  # t-cells lost, t-doc both pass
    assert (one_app["tasks"], one_app["a_pass_rate"], one_app["b_pass_rate"], one_app["lost"]) == (2, 1.0, 0.5, 1)
    assert data["by_app"]["email"]["gained"] == 1 and data["by_split"]["train"]["delta"] == 0.0
    three = next(t for t in data["tasks"] if t["task_id"] == "t-three-001")
    assert three["b"]["rate"] == 0.5 and three["b"]["trials"] == 2 and not three["b"]["passed"]
    assert data["cost"]["tokens_per_episode"] == {"a": 110.0, "b": 220.0, "delta": 110.0}
    assert data["a"]["agent"] == "model-a" and data["b"]["trials"] == 2


def test_compare_carries_each_tasks_instruction_and_failure_labels(runs):
    tasks = {t["task_id"]: t for t in compare_runs(*runs)["tasks"]}
    assert tasks["t-mail-001"]["instruction"] == fx.INSTRUCTIONS["t-mail-001"]
    assert tasks["t-mail-001"]["dialogue"] == fx.DIALOGUE and tasks["t-cells-001"]["dialogue"] is None
    assert tasks["t-event-001"]["a"]["failed"] == ["checks", "missing"]  # no collateral: not "side_effects"
    assert tasks["t-cells-001"]["b"]["failed"] == ["checks", "collateral"]


@pytest.mark.parametrize("p, text", [(1.0, "p = 1"), (0.03088, "p = 0.03088"), (0.001, "p = 0.001"),
                                     (0.000999, "p < 0.001"), (0.0, "p < 0.001"), (2 / 2 ** 114, "p < 0.001")])
def test_p_values_read_as_a_bound_when_tiny(p, text):
    assert p_text(p) == text


def test_long_flip_lists_fold_and_a_tiny_p_is_never_zero():
    def rec(task_id: str, passed: bool):
        return fx.record("t-cells-001", 1, passed, "x", 10).model_copy(update={"task_id": task_id})

    ids = [f"t-{i:02d}" for i in range(40)]
    data = compare_records([rec(t, False) for t in ids], [rec(t, True) for t in ids])
    data.update({side: {"run": side, "agent": side, "model": None, "mode": None, "trials": 1, "suite": None,
                        "episodes": 40, "tasks": 40, "passed": 0} for side in ("a", "b")})
    assert data["overall"]["mcnemar_p"] > 0  # 2 / 2**40, not rounded to 0
    page = unescape(render(data))
    shown = page[page.index('<ul class="flips gained">'):page.index("<details class=more-flips>")]
    assert shown.count("<li>") == 15 and "t-14" in shown and "t-15" not in shown
    assert "<summary>25 more</summary>" in page and 'href="#c-t-39"' in page
    assert "p < 0.001" in page and "p = 0<" not in page and "p = 0 " not in page


def test_compare_against_merged_shards_equals_the_unsharded_run(runs, tmp_path):
    a, b = runs
    recs = read_results(b)
    ids = sorted({r.task_id for r in recs})
    halves = [[r for r in recs if ids.index(r.task_id) % 2 == i] for i in (0, 1)]
    shards = [fx.write_run(tmp_path / f"s{i}", half, "model-b", 2, shard=[i, 2], selection=ids)
              for i, half in enumerate(halves)]
    merge_runs(shards, tmp_path / "merged")
    whole, merged = compare_runs(a, b), compare_runs(a, tmp_path / "merged")
    for side in (whole, merged):
        side.pop("b")
    assert merged == whole


def test_report_compare_command(runs, tmp_path, capsys):
    a, b = runs
    out = tmp_path / "cmp"
    assert cli_main(["report", "--compare", str(a), str(b), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "5 paired task(s): A 40.0% -> B 50.0% (+10.0 points; 1 gained, 1 lost; exact McNemar p = 1)" in printed
    data = json.loads((out / "compare.json").read_text())
    assert data["flips"]["lost"] == ["t-cells-001"]
    page = (out / "compare.html").read_text()
    assert 'href="#c-t-mail-001"' in page and page.count('<tr class=task ') == 5
    assert re.search(r"href=\"(\.\./)+[^\"]*/b/report\.html#t-t-cells-001-1\">details in B's report", page)
    flip = unescape(page[page.index('id="c-t-cells-001-detail"'):page.index('id="c-t-doc-001"')])  # lost: side by side
    a_side, b_side = flip.split("<div class=run-side>")[1:]
    assert "A (trial 1): <span class=pass>pass</span>" in a_side and "Budget!B9 is 33330" in a_side
    assert "(checks, collateral)" in b_side and "Budget!B9: expected 33330, found 29100" in b_side
    assert "<td>Budget!B9</td><td class=\"left\">'29100'</td>" in b_side and "Steps (2)" in b_side
    assert "<blockquote class=instruction>" + fx.INSTRUCTIONS["t-cells-001"] in flip
    both_pass = page[page.index('id="c-t-doc-001-detail"'):page.index('id="c-t-event-001"')]
    assert "class=run-side" not in both_pass and "no failed check" in both_pass  # no flip: the short view
    assert cli_main(["report", "--compare", str(a), str(tmp_path / "nowhere")]) == 2
    assert cli_main(["report", str(a), "--compare", str(a), str(b)]) == 2
    assert cli_main(["report", "--out", str(out), str(a)]) == 2
    assert "holds no results" in capsys.readouterr().err


def test_compare_defaults_to_writing_beside_run_b(runs, tmp_path):
    import shutil

    b = shutil.copytree(runs[1], tmp_path / "b")
    assert cli_main(["report", "--compare", str(runs[0]), str(b)]) == 0
    assert (b / "compare.html").exists() and (b / "compare.json").exists()


# ---- report.html -----------------------------------------------------------------------------------
def test_report_run_section_is_a_labelled_table(runs):
    page = unescape((runs[1] / "report.html").read_text())
    run = page[page.index("<h2>Run</h2>"):page.index("<h2>Tasks</h2>")]
    cells = dict(re.findall(r"<tr><th>([^<]+)</th><td>([^<]*)</td></tr>", run))
    assert cells["wall time (elapsed)"] == "300.0 s (5 min 0 s)"
    assert cells["episode time (summed)"].startswith("18.0 s over 12 episode(s)")
    assert cells["failures, by what happened"] == "checks 5 · collateral 3 · missing 2"
    assert cells["pass rate (outcome)"] == "58.3% (7/12)" and cells["pass^k"] == "pass^1 58.3% · pass^2 50.0%"
    assert "{" not in run  # no raw JSON


def test_report_is_self_contained(runs):
    page = (runs[1] / "report.html").read_text()
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page), "the page loads something from the network"
    assert "<link " not in page and "<script src" not in page
    assert page.count("<svg class=\"chart rates\"") == 4 and page.count("<svg class=\"chart histogram\"") == 3


def test_report_shows_breakdowns_with_pass_hat_k(runs):
    page = unescape((runs[1] / "report.html").read_text())
    assert "pass^2 (all 2 trials of a task pass)" in page
    # the excel bar: 3 of 6 passed; its pass^2 bar a third of the track (300 px)
    assert "excel: 3/6 passed (50.0%); pass^2 33.3%" in page
    assert 'class="hat" x="190" y="13" width="100.0"' in page
    for name in ("category", "app", "scenario", "split", "steps", "tokens", "score"):
        assert f'id="chart-{name}"' in page
    no_trials = (runs[0] / "report.html").read_text()
    assert 'class="hat"' not in no_trials and "pass^" not in no_trials


def test_report_details_steps_gold_diff_transcript(runs):
    page = unescape((runs[1] / "report.html").read_text())
    detail = page[page.index('id="t-t-cells-001-1-detail"'):]
    detail = detail[:detail.index("</tr>\n<tr class=task") if "</tr>\n<tr class=task" in detail else None]
    assert "Gold solution (2 actions)" in detail and 'excel.set_cell({"file_path": "data/budget.xlsx"' in detail
    assert "Agent's steps (2)" in detail and "Set B9." in detail
    assert "<td>Budget!B9</td><td class=\"left\">'29100'</td><td class=\"right\">'33330'</td>" in detail
    assert "Budget!B9: expected 33330, found 29100" in detail
    assert "<dt>to</dt><dd>marco@lumen.test</dd>" not in page  # t-mail passes in B: no mail differs there
    a_page = unescape((runs[0] / "report.html").read_text())  # in A it fails: the missing message, field by field
    assert "<dt>to</dt><dd>marco@lumen.test</dd><dt>subject</dt><dd>'June expenses total'</dd>" in a_page
    assert "Model transcript (3 messages)" in detail and 'excel_set_cell({"row_idx": 9})' in detail
    assert "You are an office assistant. Total the budget." in detail
    assert "<blockquote class=instruction>" + fx.INSTRUCTIONS["t-cells-001"] in detail
    assert detail.index("<h4>Instruction</h4>") < detail.index("<h4>Checks (0/1)</h4>")  # above the checks
    assert "<b>Verdict:</b> <span class=fail>fail</span> <span class=labels>(checks, collateral)</span>" in detail
    mail = page[page.index('id="t-t-mail-001-1-detail"'):]
    assert "<b>Marco</b>: Send the June total to me, not to Chloe." in mail[:mail.index("</tr>")]
    assert "“Send it to marco@lumen.test.” <b>(needed)</b>" in mail[:mail.index("</tr>")]
    rows = re.findall(r'<tr class=task id="([^"]+)"', page)
    assert len(rows) == 12 and len(set(rows)) == 12
    assert 'data-app="excel email"' in page and 'data-split="train"' in page
