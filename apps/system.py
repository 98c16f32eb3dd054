"""The system app: moving between apps, asking the user, finishing the task, and looking around the office.

``switch_app`` and ``finish_task`` only declare intent here; the session (server/session.py)
applies them to its state machine. Their schemas live here with every other operation. ``ask_user``
answers from the task's scripted user, which the session puts in the context's settings (apps/asking.py).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from officesim.apps.asking import QUESTION_LIMIT, SETTINGS_KEY, reply_to
from officesim.apps.registry import APP_NAMES, App, OfficeContext, OpError, Result

app = App("system", "Switch between applications, list the office's files, ask the user and finish the task.")

def switch_app(ctx: OfficeContext, target_app: str) -> Result:
    """Switch to another application; afterwards only that app's actions are available.

    Args:
        target_app: one of {apps}.
    """
    target = target_app.strip().lower()
    if target not in APP_NAMES:
        raise OpError("unknown_app", f"cannot switch to '{target_app}'; apps are: {', '.join(APP_NAMES)}")
    return Result(observation=f"Switched to app {target}.", data={"current_app": target})


switch_app.__doc__ = switch_app.__doc__.format(apps=", ".join(APP_NAMES))
app.operation(switch_app, inline=True)  # pure: runs in the server process


@app.operation(inline=True)
def finish_task(ctx: OfficeContext, answer: str | int | float | None = None) -> Result:
    """Finish the task. Give the answer here when the task asks a question.

    Args:
        answer: the answer to a question task; leave empty otherwise.
    """
    text = None if answer is None else str(answer)
    return Result(observation="Task finished.", data={"answer": text})


@app.operation(inline=True)
def ask_user(ctx: OfficeContext, question: str) -> Result:
    """Ask the user a question when the task lacks information you need; the reply is the observation.

    Args:
        question: the question, in plain words.
    """
    text = question.strip()
    if not text:
        raise OpError("bad_arguments", "system.ask_user: the question is empty")
    if len(text) > QUESTION_LIMIT:
        raise OpError("resource_limit", f"system.ask_user takes at most {QUESTION_LIMIT} characters, not {len(text)}")
    reply = reply_to(ctx.settings.get(SETTINGS_KEY), text)  # the task's scripted user (apps/asking.py)
    return Result(observation=f"The user replies: {reply}", data={"question": text, "reply": reply})


CODE_LIMIT = 100_000  # characters a program of system.run_code may have


@app.operation(inline=True)
def run_code(ctx: OfficeContext, code: str) -> Result:
    """Run a Python program (sessions in mode "code" only). Its module ``officesim`` has every operation
    as a function (``excel.read_file(file_path=...)``, ``system.switch_app(target_app=...)``) returning
    the observation; stdout, stderr and the calls made are the observation.

    Args:
        code: the Python program.
    """
    if not code.strip():
        raise OpError("bad_arguments", "system.run_code: the program is empty")
    if len(code) > CODE_LIMIT:
        raise OpError("resource_limit", f"system.run_code takes at most {CODE_LIMIT} characters, not {len(code)}")
    return Result(observation="", data={"code": code})  # the session runs it (server/code.py)


CLIPBOARD_LIMIT = 100_000  # characters system.copy keeps


@app.operation(inline=True)
def copy(ctx: OfficeContext, text: str) -> Result:
    """Copy text to the clipboard (OfficeBench's system.copy); system.paste gives it back.

    Args:
        text: the text to copy.
    """
    if len(text) > CLIPBOARD_LIMIT:
        raise OpError("resource_limit", f"system.copy keeps at most {CLIPBOARD_LIMIT} characters, not {len(text)}")
    ctx.clipboard = text
    return Result(observation="Text copied successfully.", data={"characters": len(text)})


@app.operation(inline=True)
def paste(ctx: OfficeContext) -> Result:
    """Give back the text last copied with system.copy."""
    if ctx.clipboard is None:
        raise OpError("not_found", "the clipboard is empty (use system.copy first)")
    return Result(observation=ctx.clipboard, data={"text": ctx.clipboard})


FILES_PAGE = 100  # entries a listing shows by default (a lived-in office holds about a thousand files)


@app.operation
def list_files(ctx: OfficeContext, path: str = ".", depth: int | None = None, page: int = 1,
               page_size: int = FILES_PAGE) -> Result:
    """List the files under a folder of the office (recursively), with their sizes, a page at a time.

    Args:
        path: folder inside the office; the office root by default.
        depth: how many folder levels to descend (1: only what is directly in the folder; deeper
            folders are shown with how many files they hold); every level when omitted.
        page: the page of the listing to show, from 1; the first line says when there are more.
        page_size: entries per page (default 100, at most 1000).
    """
    if depth is not None and depth < 1:
        raise OpError("bad_arguments", "argument 'depth': 1 or more (1 lists only the folder's own entries)")
    if page < 1 or not 1 <= page_size <= 1000:
        raise OpError("bad_arguments", "argument 'page' counts from 1 and 'page_size' is between 1 and 1000")
    root = ctx.office.resolve(path)
    if not root.exists():
        raise OpError("file_not_found", f"no such folder: {path}")
    if root.is_file():
        rows = [_row(ctx, root)]
    else:
        rows = _scan(ctx, root)
        if depth is not None:
            rows = _within(rows, ctx.office.relpath(root) if root != ctx.office.root else "", depth)
    rows = [r for r in rows if r is not None]
    if not rows:
        return Result(observation=f"No files under {path}.", data=[])
    total, pages = len(rows), max(1, -(-len(rows) // page_size))
    shown = rows[(page - 1) * page_size:page * page_size]
    lines = [_line(r) for r in shown]
    if pages > 1:
        more = f"; next: list_files(path={path!r}{f', depth={depth}' if depth else ''}, page={page + 1})" \
            if page < pages else "; the last page"
        lines.insert(0, f"{total} entries under {path}, page {page} of {pages}{more}:")
    return Result(observation="\n".join(lines), data=shown)


def _scan(ctx: OfficeContext, folder: Path) -> list[dict]:
    """The rows of the files and symbolic links below ``folder``, sorted by path; links to folders are
    listed, not entered. One ``scandir`` per folder: the status of each entry comes with its name
    (the entry itself, a link not followed), so a thousand-file office lists without a call per file."""
    base = str(ctx.office.root)
    out: list[dict] = []
    stack = [str(folder)]
    while stack:
        here = stack.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    row = _row(ctx, Path(entry.path))
                elif entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                elif entry.is_file(follow_symlinks=False):
                    row = {"path": entry.path[len(base) + 1:], "size": entry.stat(follow_symlinks=False).st_size}
                else:
                    continue
            except OSError:
                continue
            if row is not None:
                out.append(row)
    out.sort(key=lambda r: r["path"].split("/"))  # folder by folder, as paths compare
    return out


def _within(rows: list[dict | None], base: str, depth: int) -> list[dict]:
    """The rows at most ``depth`` levels below ``base``; a deeper one is counted in its folder's row."""
    out: list[dict] = []
    folders: dict[str, dict] = {}
    prefix = f"{base}/" if base else ""
    for row in rows:
        if row is None:
            continue
        parts = row["path"][len(prefix):].split("/")
        if len(parts) <= depth:
            out.append(row)
            continue
        folder = prefix + "/".join(parts[:depth]) + "/"
        if folder not in folders:
            folders[folder] = {"path": folder, "size": None, "folder": True, "files": 0}
            out.append(folders[folder])
        folders[folder]["files"] += 1
    return out


def _row(ctx: OfficeContext, p: Path) -> dict | None:
    """One listing row: a file with its size, or a link with where it points (never a host path)."""
    rel = p.relative_to(ctx.office.root).as_posix()
    if p.is_symlink():
        real = Path(os.path.realpath(p))
        root = ctx.office.root
        if real == root or root in real.parents:
            return {"path": rel, "size": None, "link": real.relative_to(root).as_posix() or "."}
        return {"path": rel, "size": None, "link": None}
    try:
        st = p.lstat()  # the entry itself: a link swapped in since the walk is not followed
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return {"path": rel, "size": st.st_size}


def _line(row: dict) -> str:
    if row.get("folder"):
        return f"{row['path']} (folder: {row['files']} file{'s' if row['files'] != 1 else ''})"
    if "link" not in row:
        return f"{row['path']} ({row['size']} bytes)"
    if row["link"] is None:
        return f"{row['path']} -> (a link pointing outside the office; it cannot be opened)"
    return f"{row['path']} -> {row['link']} (link)"
