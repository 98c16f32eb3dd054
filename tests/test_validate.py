"""The validator exits non-zero on a broken task (gold fails, no-op passes, wrong passes) and zero on good ones."""

from __future__ import annotations

import io

from officesim.runner.cli import main as cli_main
from officesim.runner.validate import main as validate
from tests._api_tasks import BUDGET, QUESTION, variant, write_tasks


def run(tmp_path, *tasks, **kw) -> tuple[int, str]:
    out = io.StringIO()
    code = validate([str(write_tasks(tmp_path / "tasks", *tasks))], include_suite=False, out=out, **kw)
    return code, out.getvalue()


def test_good_tasks_pass(tmp_path):
    code, text = run(tmp_path, BUDGET, QUESTION, workers=2)
    assert code == 0, text
    assert "2 ok, 0 failing" in text


def test_gold_that_fails_is_reported(tmp_path):
    broken = variant(BUDGET, id="broken-gold")
    broken["checks"][0]["args"]["value"] = 1600
    code, text = run(tmp_path, broken, QUESTION)
    assert code == 1
    line = next(l for l in text.splitlines() if l.startswith("FAIL broken-gold"))
    assert "gold fails" in line and "B4" in line
    assert "FAIL api-question" not in text


def test_noop_that_passes_is_reported(tmp_path):
    lazy = variant(BUDGET, id="noop-passes",
                   checks=[{"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B2", "value": 1200}}],
                   gold=[], wrong=[])
    code, text = run(tmp_path, lazy)
    assert code == 1 and "doing nothing passes" in text


def test_no_action_task_may_pass_when_doing_nothing(tmp_path):
    calm = variant(BUDGET, id="no-action", no_action=True,
                   checks=[{"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B2", "value": 1200}}],
                   gold=[], wrong=[])
    code, text = run(tmp_path, calm)
    assert code == 0, text


def test_wrong_solution_that_passes_is_reported(tmp_path):
    weak = variant(BUDGET, id="weak-wrong")
    weak["wrong"] = [{"name": "same as gold", "actions": weak["gold"]}]
    code, text = run(tmp_path, weak)
    assert code == 1 and "wrong solution 'same as gold' passes" in text


def test_gold_action_error_is_reported(tmp_path):
    sloppy = variant(BUDGET, id="sloppy-gold")
    sloppy["gold"].insert(1, {"app": "excel", "action": "read_file", "args": {"file_path": "data/nope.xlsx"}})
    code, text = run(tmp_path, sloppy)
    assert code == 1 and "gold action failed" in text and "nope.xlsx" in text


def test_cli_validate_and_task_selection(tmp_path, capsys):
    broken = variant(BUDGET, id="broken-gold")
    broken["checks"][0]["args"]["value"] = 1600
    folder = write_tasks(tmp_path / "tasks", broken, QUESTION)
    assert cli_main(["validate", "--no-suite", "--tasks", str(folder), "--task", "api-question"]) == 0
    assert cli_main(["validate", "--no-suite", "--tasks", str(folder), "--workers", "2"]) == 1
    assert cli_main(["validate", "--no-suite", "--tasks", str(folder), "--task", "missing"]) == 2
    assert "broken-gold" in capsys.readouterr().out


def test_each_task_is_reported_on_the_progress_stream_as_it_finishes(tmp_path, capsys):
    broken = variant(BUDGET, id="broken-gold")
    broken["checks"][0]["args"]["value"] = 1600
    progress = io.StringIO()
    code, text = run(tmp_path, BUDGET, QUESTION, broken, workers=2, progress=progress)
    said = progress.getvalue().splitlines()
    # while its private server starts, the validator says so (every 10 s on a loaded machine, "starting 1
    # private server… (10 s, 0 of 1 ready)"); then one line per task
    starting = [l for l in said if l.startswith("starting 1 private server")]
    assert said[0].startswith("starting 1 private server (limit "), said
    assert said[len(starting)].startswith("1 private server ready ("), said
    lines = [l for l in said if l.startswith("[")]
    assert code == 1 and len(lines) == 3 and len(said) == len(starting) + 1 + 3, said
    assert sorted(l.split()[0] for l in lines) == ["[1/3]", "[2/3]", "[3/3]"]
    failing = next(l for l in lines if " broken-gold " in l)
    assert " FAIL " in failing and "gold fails" in failing
    assert any(l.endswith(" api-question ok (wrong 1/1 killed, right 0/0 passed)") for l in lines), lines
    weak = variant(BUDGET, id="weak-wrong")
    weak["wrong"] = [{"name": "same as gold", "actions": weak["gold"]}]
    progress = io.StringIO()
    run(tmp_path / "weak", weak, progress=progress)
    assert progress.getvalue().rstrip().endswith("weak-wrong FAIL (wrong 0/1 killed, right 0/0 passed): "
                                                 "wrong solution 'same as gold' passes | SURVIVED authored:same as gold")
    folder = write_tasks(tmp_path / "cli", QUESTION)
    assert cli_main(["validate", "--no-suite", "--tasks", str(folder)]) == 0
    assert "] api-question ok (wrong 1/1 killed" in capsys.readouterr().err
    assert cli_main(["validate", "--no-suite", "--tasks", str(folder), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_load_errors_exit_2(tmp_path):
    bad = variant(QUESTION, id="bad-task", category=3)
    code, text = run(tmp_path, bad)
    assert code == 2 and "category" in text


def test_several_server_processes(tmp_path):
    broken = variant(BUDGET, id="broken-gold")
    broken["checks"][0]["args"]["value"] = 1600
    code, text = run(tmp_path, BUDGET, QUESTION, broken, servers=2, workers=3)
    assert code == 1 and "FAIL broken-gold" in text and "2 ok, 1 failing" in text


def test_class_table_counts_every_class_including_the_workbench_ones():
    from officesim.runner.mutants import RIGHT, WRONG, Mutant
    from officesim.runner.validate import MutantResult, TaskReport, class_table

    def result(cls: str, kind: str, passed: bool) -> MutantResult:
        return MutantResult(Mutant(name=cls, cls=cls, kind=kind, actions=[]), passed, "")

    report = TaskReport("t", mutants=[result("step-dropped", WRONG, False), result("id-replaced", WRONG, False),
                                      result("id-replaced", WRONG, True), result("case-changed", RIGHT, True),
                                      result("unlisted-class", WRONG, False)])
    table = class_table([report])
    assert table[f"{WRONG} id-replaced"] == {"mutants": 2, "ok": 1}
    assert table[f"{RIGHT} case-changed"] == {"mutants": 1, "ok": 1}
    assert table[f"{WRONG} unlisted-class"] == {"mutants": 1, "ok": 1}
    assert list(table)[:2] == [f"{WRONG} step-dropped", f"{WRONG} id-replaced"]


def test_per_class_lists_every_registered_class_and_says_which_gave_no_mutant():
    from officesim.runner.mutants import CLASSES, RIGHT, WRONG, Mutant
    from officesim.runner.validate import MutantResult, TaskReport, mutation_summary

    report = TaskReport("t", mutants=[MutantResult(Mutant(name="x", cls="off-row", kind=WRONG, actions=[]), True, ""),
                                      MutantResult(Mutant(name="y", cls="formula", kind=RIGHT, actions=[]), True, "")])
    per_class = mutation_summary([report])["per_class"]
    assert per_class[f"{WRONG} off-row"] == {"mutants": 1, "ok": 0}
    assert per_class[f"{RIGHT} formula"] == {"mutants": 1, "ok": 1}
    for c in CLASSES:  # never silently missing
        assert f"{c.kind} {c.name}" in per_class
    absent = per_class[f"{WRONG} id-replaced"]
    assert absent["mutants"] == 0 and "none of the tasks" in absent["note"]


def test_a_broken_connection_is_played_again_and_never_counted_as_a_survivor(monkeypatch):
    import httpx

    from officesim.runner import validate as v
    from officesim.runner.mutants import WRONG, Mutant

    mutant = Mutant(name="x", cls="number-changed", kind=WRONG, actions=[])
    outcomes = [httpx.ReadError("Connection reset by peer"), ({"passed": False, "checks": []}, [])]

    def play(client, task, actions, answer):
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(v, "play", play)
    result = v.play_mutant(None, None, mutant)
    assert result.passed is False and result.ok and outcomes == []

    outcomes[:] = [httpx.ReadError("reset"), httpx.ReadError("reset again")]
    broken = v.play_mutant(None, None, mutant)
    assert broken.passed is None and "connection error" in broken.said
    out = io.StringIO()
    v.print_mutation_report([v.TaskReport("t", mutants=[broken])], out)
    assert "UNGRADED t [wrong number-changed]" in out.getvalue() and "SURVIVED" not in out.getvalue()
