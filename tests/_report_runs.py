"""Two small run directories, A and B, written from records (no server): flips both ways, a task in
one run only, several trials in B, a transcript, and collateral and missing changes of each kind."""

from __future__ import annotations

from pathlib import Path

from officesim.evaluators.record import CheckRecord, EpisodeRecord
from officesim.runner.results import RUN_META, rewrite_clean, write_json
from officesim.runner.run import finalize

CELL = "data/budget.xlsx: differs from the correct outcome (Budget!B9 is '29100', correct: '33330')"
MAIL_MISSING = "emails/dmitri@granitepeak.test/sent/: no message to marco@lumen.test: 'June expenses total' as in the correct outcome"
MAIL_EXTRA = "emails/dmitri@granitepeak.test/sent/: extra message to chloe@lumen.test: 'June expenses total'"
EVENT = ("calendar/grace@bluefin.test.ics: differs from the correct outcome (no event at 2026-09-02 10:00:00-2026-09-02 "
         "10:30:00 in 'room aspen' as in the correct outcome ('team weekly'))")
PARAGRAPHS = "data/memo.docx: differs from the correct outcome (2 new or rewritten paragraph(s), the correct outcome has 1)"
CHANGE = "data/budget.xlsx: modified (sheet Budget: A9 empty -> 'Total', B9 empty -> 29100)"

# task id -> category, apps, scenario, split, gold
TASKS = {
    "t-cells-001": (1, ["excel"], "budget-total", "test"),
    "t-mail-001": (2, ["excel", "email"], "expenses-mail", "test"),
    "t-event-001": (2, ["calendar", "email"], "meeting-move", "test"),
    "t-doc-001": (1, ["word"], "memo-write", "train"),
    "t-three-001": (3, ["excel", "word", "email"], "report-send", "test"),
    "t-only-a-001": (1, ["pdf"], "pdf-read", "test"),
    "t-only-b-001": (1, ["pdf"], "pdf-read", "test"),
}
INSTRUCTIONS = {t: f"Do the work of {t}: total the June budget in data/budget.xlsx." for t in TASKS}
DIALOGUE = [{"speaker": "Marco", "at": "2026-06-30 09:12:00", "text": "Send the June total to me, not to Chloe."}]
REPLIES = [{"when": ["recipient"], "reply": "Send it to marco@lumen.test.", "needed": True}]
# task id -> passed per trial
A = {"t-cells-001": [True], "t-mail-001": [False], "t-event-001": [False], "t-doc-001": [True],
     "t-three-001": [False], "t-only-a-001": [True]}
B = {"t-cells-001": [False, False], "t-mail-001": [True, True], "t-event-001": [False, False],
     "t-doc-001": [True, True], "t-three-001": [True, False], "t-only-b-001": [True, True]}
DIFFS = {"t-cells-001": ([CELL], []), "t-mail-001": ([MAIL_EXTRA], [MAIL_MISSING]), "t-event-001": ([], [EVENT]),
         "t-three-001": ([PARAGRAPHS], []), "t-doc-001": ([], []), "t-only-a-001": ([], []), "t-only-b-001": ([], [])}
GOLD = [{"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
        {"app": "excel", "action": "set_cell", "args": {"file_path": "data/budget.xlsx", "row_idx": 9, "column_idx": 2,
                                                        "text": 33330}}]
TRANSCRIPT = [{"role": "user", "content": "You are an office assistant. Total the budget."},
              {"role": "assistant", "content": None, "tool_calls": [
                  {"id": "c1", "type": "function", "function": {"name": "excel_set_cell", "arguments": '{"row_idx": 9}'}}]},
              {"role": "tool", "tool_call_id": "c1", "content": "Set B9 to 29100."}]


def record(task_id: str, trial: int, passed: bool, agent: str, tokens: int) -> EpisodeRecord:
    category, apps, scenario, split = TASKS[task_id]
    collateral, missing = DIFFS[task_id] if not passed else ([], [])
    checks = [CheckRecord(check="xlsx_cell", args={"cell": "B9"}, passed=passed,
                          message="Budget!B9 is 33330" if passed else "Budget!B9: expected 33330, found 29100")]
    steps = [{"step": 1, **GOLD[0], "ok": True, "observation": "Switched to app excel."},
             {"step": 2, "app": "excel", "action": "set_cell", "args": {"row_idx": 9, "text": 29100}, "ok": True,
              "observation": "Set B9."}]
    return EpisodeRecord.graded(
        checks, collateral + missing, collateral=collateral, missing=missing, task_id=task_id, category=category,
        apps=apps, scenario=scenario, split=split, trial=trial, agent=agent, mode="switch_app", status="finished",
        steps=len(steps) + trial, tokens={"prompt": tokens, "completion": tokens // 10}, wall_time_s=1.5,
        changes=[CHANGE] if task_id == "t-cells-001" else [], trajectory=steps, gold=GOLD,
        transcript=TRANSCRIPT if agent == "model-b" else None, instruction=INSTRUCTIONS[task_id],
        dialogue=DIALOGUE if task_id == "t-mail-001" else None, user_replies=REPLIES if task_id == "t-mail-001" else None)


def records(outcomes: dict[str, list[bool]], agent: str, tokens: int) -> list[EpisodeRecord]:
    return [record(t, k + 1, ok, agent, tokens) for t, oks in outcomes.items() for k, ok in enumerate(oks)]


def write_run(out: Path, recs: list[EpisodeRecord], agent: str, trials: int, shard: list[int] | None = None,
              selection: list[str] | None = None) -> Path:
    """A run directory as eval leaves it: run.json, results.jsonl, summary.json, report.html."""
    out.mkdir(parents=True, exist_ok=True)
    ids = sorted({r.task_id for r in recs})
    write_json(out / RUN_META, {"agent": agent, "model": None, "mode": "switch_app", "max_steps": 50, "trials": trials,
                                "suite": "fixture", "shard": shard, "task_ids": ids, "selection": selection or ids,
                                "started": "2026-01-01T10:00:00+0000", "finished": "2026-01-01T10:05:00+0000"})
    rewrite_clean(out, recs)
    finalize(out)
    return out


def write_runs(root: Path) -> tuple[Path, Path]:
    """Run A (one trial, agent model-a) and run B (two trials, agent model-b, with a transcript)."""
    return (write_run(root / "a", records(A, "model-a", 100), "model-a", 1),
            write_run(root / "b", records(B, "model-b", 200), "model-b", 2))
