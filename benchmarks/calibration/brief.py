"""Write a helper's brief for each task of a round: the prompt as an agent gets it, and the gold's
actions with the observation each returned (played in-process on a fresh office).

    python benchmarks/calibration/brief.py ROUND_DIR TASK_ID [TASK_ID ...]

writes ROUND_DIR/TASK_ID/brief.md and gold.yaml; the helper writes ROUND_DIR/TASK_ID/outcomes.yaml
(``wrong:`` and ``right:`` lists, each item ``{name, actions, answer}`` in the task file's shape)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import yaml

from officesim.server.session import Session
from officesim.tasks.gold import gold_actions
from officesim.tasks.loader import load_tasks
from officesim.tasks.model import Task
from officesim.testbed.materialise import new_office, remove_office

OBSERVATION_CHARS = 6_000  # of each observation in a brief; the helper can read more with act.py


def gold_transcript(task: Task) -> list[tuple[dict, str]]:
    """(action, observation) of each gold step, played on a fresh office."""
    with tempfile.TemporaryDirectory() as tmp:
        office = new_office(task, Path(tmp))
        try:
            steps = gold_actions(task.gold, task.answer)
            session = Session(task, "all_operations", len(steps) + 5, office)
            out = []
            for act in steps:
                if act["action"] == "finish_task":
                    break
                result = session.step(act["app"], act["action"], act.get("args") or {})
                out.append((act, result.observation))
            return out
        finally:
            remove_office(office)


def brief(task: Task) -> str:
    lines = [f"# {task.id}", "", f"You are {task.user_name} <{task.user}>; now is {task.now}.", "",
             "## Instruction", "", task.instruction, ""]
    if task.dialogue:
        lines += ["## Messages above the instruction", ""]
        lines += [f"- **{d.speaker}** ({d.at}): {d.text}" for d in task.dialogue]
        lines.append("")
    lines += ["## A correct solution, step by step, with what each step showed", ""]
    for i, (act, obs) in enumerate(gold_transcript(task), 1):
        cut = obs if len(obs) <= OBSERVATION_CHARS else obs[:OBSERVATION_CHARS] + "\n[... cut; read it with act.py]"
        lines += [f"### {i}. {act['app']}.{act['action']} {yaml.safe_dump(act.get('args') or {}, default_flow_style=True, width=10_000).strip()}",
                  "", "```", cut, "```", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(argv[0])
    tasks = load_tasks(only=argv[1:])
    for task_id in argv[1:]:
        task = tasks[task_id]
        out = root / task_id
        out.mkdir(parents=True, exist_ok=True)
        (out / "brief.md").write_text(brief(task), encoding="utf-8")
        gold = [a.model_dump() for a in task.gold] if task.gold else []
        (out / "gold.yaml").write_text(yaml.safe_dump({"actions": gold, "answer": task.answer}, sort_keys=False,
                                                      allow_unicode=True, width=120), encoding="utf-8")
        print(f"{out}/brief.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
