"""A task's difficulty card: what makes it long or hard, counted from the task itself.

``gold_steps`` (the gold solution's actions, the final finish_task not counted), ``apps`` (the office
apps it uses, system not counted), ``office_files`` (files of a fresh office, each mail and calendar
included) and ``dialogue_tokens`` (the conversation before the instruction, in words and punctuation marks).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from officesim.tasks.model import Task


@lru_cache(maxsize=None)
def _folder_files(folder: str) -> frozenset[str]:
    root = Path(folder)
    return frozenset(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@lru_cache(maxsize=None)
def _world_files(name: str) -> frozenset[str]:
    """The paths a world's office holds, from its records (no need to build it)."""
    from officesim.testbed.worlds import world

    w = world(name)
    paths = {f["path"] for f in w.files}
    paths |= {f"emails/{w.user.email}/{'' if m.folder == 'inbox' else 'sent/'}{m.id}.eml" for m in w.mails}
    paths.add(f"calendar/{w.user.email}.ics")
    return frozenset(paths)


def office_paths(task: Task) -> set[str]:
    """Every path of the task's fresh office (builders, files/, a shared folder or a world)."""
    paths: set[str] = set()
    if task.world:
        paths |= _world_files(task.world)
    elif task.office_from and task.source_dir:
        paths |= _folder_files(str((Path(task.source_dir) / task.office_from).resolve()))
    if task.source_dir and (Path(task.source_dir) / "files").is_dir():
        paths |= _folder_files(str(Path(task.source_dir) / "files"))
    for b in task.office:
        if b.type == "eml":
            sub = "" if b.folder == "inbox" else "sent/"
            paths.add(f"emails/{b.user.lower()}/{sub}{b.id or f'new-{len(paths)}'}.eml")
        elif b.type == "ics":
            paths.add(f"calendar/{b.user.lower()}.ics")
        else:
            paths.add(b.path)
    return paths


_TOKEN = re.compile(r"\w+|[^\w\s]")


def _tokens(text: str) -> int:
    """Words and punctuation marks: a tokenizer-free count, the same on every machine (a BPE tokenizer
    would need its vocabulary downloaded), close to a model's token count for English prose."""
    return len(_TOKEN.findall(text))


def difficulty(task: Task) -> dict[str, int]:
    """The task's card: gold_steps, apps, office_files, dialogue_tokens."""
    steps = [a for a in task.gold if not (a.app == "system" and a.action == "finish_task")]
    apps = {a.app for a in task.gold} - {"system"}
    dialogue = "\n".join(f"{t.speaker}: {t.text}" for t in task.dialogue)
    return {"gold_steps": len(steps), "apps": len(apps), "office_files": len(office_paths(task)),
            "dialogue_tokens": _tokens(dialogue) if dialogue else 0}
