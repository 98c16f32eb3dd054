"""The hard split: lived-in offices (testbed/worlds), tasks that start from them, their difficulty
cards, dialogue, checkpoints, and the selection rules (the hard split runs when asked for)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from officesim.evaluators import EvalState, run_checks
from officesim.tasks.difficulty import difficulty
from officesim.tasks.loader import HARD_DIR, load_tasks
from officesim.tasks.model import Task
from officesim.testbed.worlds import WORLDS, world
from officesim.testbed.worlds.build import write_office


def test_a_world_is_the_same_on_every_generation():
    from officesim.testbed.worlds.generate import generate

    company, domain, now, size = WORLDS["fernhill"]
    a = generate("fernhill", company=company, domain=domain, now=now, size=size)
    b = generate("fernhill", company=company, domain=domain, now=now, size=size)
    assert [p.email for p in a.people] == [p.email for p in b.people]
    assert [(m.id, m.subject, m.when) for m in a.mails] == [(m.id, m.subject, m.when) for m in b.mails]
    assert a.files == b.files


@pytest.mark.parametrize("name", sorted(WORLDS))
def test_every_world_is_lived_in(name):
    """The issue's figures: 40-150 people with teams and managers, 500+ messages, 300+ files, sheets of
    thousands of rows, recurring meetings."""
    w = world(name)
    assert 40 <= len(w.people) <= 150
    assert all(p.manager for p in w.people[1:])  # everyone but the top has a manager
    assert len({p.team for p in w.people}) >= 6
    assert len([m for m in w.mails if m.folder == "inbox"]) >= 500
    assert len(w.files) >= 300
    assert max(len(next(iter(f["sheets"].values()))) for f in w.files if f["type"] == "xlsx") >= 1000
    assert len([e for e in w.events if e.series == "Operations weekly"]) >= 10
    ids = [m.id for m in w.mails]
    assert len(ids) == len(set(ids))
    # a mail's attachment is a file of the world
    paths = {f["path"] for f in w.files}
    assert all(a in paths for m in w.mails for a in m.attachments)


def test_a_world_office_is_real_files(tmp_path):
    from officesim.testbed.parse import parse_office

    w = world("fernhill")
    write_office(w, tmp_path / "office")
    parsed = parse_office(tmp_path / "office")
    task_like = Task.model_validate({"id": "t", "scenario": "t", "category": 1, "apps": ["excel"], "user": w.user.email,
                                     "now": "2026-10-19 09:00:00", "instruction": "x", "world": "fernhill",
                                     "checks": [{"check": "file_exists", "args": {"file": "data/x"}}], "gold": []})
    assert len(parsed) == difficulty(task_like)["office_files"]  # the card counts what the office holds
    kinds = {e["kind"] for e in parsed.values()}
    assert {"xlsx", "docx", "pdf", "eml", "ics", "image", "text"} <= kinds
    assert not [p for p, e in parsed.items() if e["kind"] == "corrupt"]
    sheet = parsed[w.paths["pos"]]["sheets"]["Orders"]
    assert sheet[w.pos[5].row - 1][0] == w.pos[5].po  # a record's row is where it is written


def _hard() -> dict[str, Task]:
    return {k: t for k, t in load_tasks().items() if t.split == "hard"}


def test_hard_tasks_start_from_a_world_with_new_ids():
    hard = _hard()
    assert hard, f"no hard tasks under {HARD_DIR}"
    for t in hard.values():
        assert t.id.startswith("hard-") and t.world in WORLDS
        assert t.source_dir and Path(t.source_dir).parent == HARD_DIR


def test_the_difficulty_card_counts_steps_apps_files_and_dialogue():
    hard = _hard()
    cards = {k: difficulty(t) for k, t in hard.items()}
    assert all(c["office_files"] >= 300 for c in cards.values())
    with_dialogue = [k for k, t in hard.items() if t.dialogue]
    assert with_dialogue and all(cards[k]["dialogue_tokens"] > 20 for k in with_dialogue)
    t = next(iter(hard.values()))
    assert cards[t.id]["gold_steps"] == len([a for a in t.gold if a.action != "finish_task"])


def test_dialogue_comes_before_the_instruction_in_what_the_agent_sees():
    t = next(t for t in _hard().values() if t.dialogue)
    brief = t.brief
    assert brief.index(t.dialogue[0].text) < brief.index(t.dialogue[-1].text) < brief.index(t.instruction)
    assert t.public()["instruction"] == brief


def test_tasks_list_json_shows_split_and_difficulty():
    out = subprocess.run([sys.executable, "-m", "officesim.runner.cli", "tasks", "list", "--json"],
                         capture_output=True, text=True, check=True).stdout
    rows = {r["id"]: r for r in json.loads(out)}
    hard = [r for r in rows.values() if r["split"] == "hard"]
    assert hard and all(set(r["difficulty"]) >= {"gold_steps", "apps", "office_files", "dialogue_tokens"} for r in hard)
    assert rows["budget-add-total-001"]["difficulty"]["office_files"] >= 1


def test_eval_runs_the_hard_split_only_when_asked():
    from officesim.runner.run import EvalConfig, select_tasks

    _all, default = select_tasks(EvalConfig(agent="oracle"))
    assert default and not [t for t in default if t.split == "hard"]
    _all, hard = select_tasks(EvalConfig(agent="oracle", split="hard"))
    assert hard and all(t.split == "hard" for t in hard)
    one = hard[0].id
    _all, named = select_tasks(EvalConfig(agent="oracle", task_ids=[one]))
    assert [t.id for t in named] == [one]


def test_a_checkpoint_is_named_in_the_record():
    state = EvalState(files={"data/a.txt": {"kind": "text", "text": "hello"}})
    records = run_checks([{"check": "file_exists", "args": {"file": "data/a.txt"}, "name": "report written"},
                          {"check": "file_exists", "args": {"file": "data/b.txt"}}], state)
    assert records[0].checkpoint == "report written" and records[0].passed
    assert records[1].checkpoint is None and not records[1].passed
    assert "checkpoint" not in records[1].model_dump()


def test_a_sample_of_hard_tasks_validates_end_to_end():
    """One task per world through the real server: the gold solution passes with no side effect and
    finishing at once fails (the full split: `officesim validate --split hard [--mutants]`)."""
    import io

    from officesim.runner.validate import main as validate

    hard = _hard()
    sample = [sorted(t.id for t in hard.values() if t.world == w)[0] for w in sorted(WORLDS)]
    out = io.StringIO()
    code = validate(task_ids=sample, workers=3, servers=1, out=out)
    assert code == 0, out.getvalue()
    assert f"validated {len(sample)} task(s): {len(sample)} ok" in out.getvalue()
