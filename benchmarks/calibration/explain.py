"""Why an outcome got its grade: play one outcome of a round on a fresh office and print, for every place the
agent wrote, each value the reader judged with its verdict and reason, the statements it left unread, and the
written-content check's false statements. For the developer after a replay, never for the helpers.

    python benchmarks/calibration/explain.py ROUND_DIR/TASK_ID wrong|right INDEX"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import yaml

from officesim.evaluators import EvalState
from officesim.evaluators.truth import places, records_of, scope_of, written_truth
from officesim.evaluators.verdicts import read
from officesim.server.grade import with_image_text
from officesim.server.grading import Evaluator
from officesim.server.session import Session
from officesim.tasks.gold import gold_actions
from officesim.tasks.loader import load_tasks
from officesim.testbed.materialise import new_office, remove_office
from officesim.testbed.parse import parse_office


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("wrong", "right"):
        print(__doc__, file=sys.stderr)
        return 2
    folder, kind, index = Path(argv[0]), argv[1], int(argv[2])
    task = load_tasks(only=[folder.name])[folder.name]
    item = (yaml.safe_load((folder / "outcomes.yaml").read_text(encoding="utf-8")) or {})[kind][index]
    print(f"{task.id} {kind}[{index}]: {item.get('name')}")
    with tempfile.TemporaryDirectory() as tmp:
        evaluator = Evaluator(sessions_dir=Path(tmp) / "gold")
        office = new_office(task, Path(tmp))
        try:
            steps = gold_actions(item.get("actions") or [], item.get("answer"))
            session = Session(task, "all_operations", len(steps) + 5, office, evaluate=evaluator.evaluate)
            for act in steps:
                session.step(act["app"], act["action"], act.get("args") or {})
            record = session.evaluation
            after = parse_office(Path(office.root), task.timezone)
            gold = evaluator.gold(task)
            state = EvalState(files=with_image_text(after, task.checks, Path(office.root)), answer=session.answer,
                              timezone=task.timezone, now=task.now_dt, instruction=task.brief,
                              before=evaluator.before(task), gold=gold.after,
                              gold_answer=None if gold.answer is None else str(gold.answer), user=task.user,
                              user_name=task.user_name, people=dict(task.people),
                              pictures_hold_ids=task.world is None)
        finally:
            remove_office(office)
            evaluator.close()
    print(f"grade: {'PASS' if record and record.passed else 'FAIL'}")
    for check in (record.checks if record else []):
        if not check.passed:
            print(f"  failed check {check.check}: {check.message[:600]}")
    records = records_of(state)
    for place in places(state):
        print(f"\n== {place.where}")
        reading = read(place.text, records, scope_of(state, place), subject=place.subject,
                       neutral=[state.user or "", *place.neutral],
                       addressee=place.to[0] if place.to and len(place.to) == 1 else "")
        for v in reading.verdicts:
            print(f"  {v.verdict:6} {v.value!r} in {v.statement[:90]!r}: {v.why[:200]}")
        for u in reading.unread:
            print(f"  unread {u[:120]!r}")
    print("\nwritten-content check, false:")
    for line in written_truth(state).false:
        print(f"  {line[:400]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
