"""The system app: moving between apps, finishing the task, and looking around the office.

``switch_app`` and ``finish_task`` only declare intent here; the session (server/session.py)
applies them to its state machine. Their schemas live here with every other operation.
"""

from __future__ import annotations

from officesim.apps.registry import APP_NAMES, App, OfficeContext, OpError, Result

app = App("system", "Switch between applications, list the office's files and finish the task.")

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
app.operation(switch_app)


@app.operation
def finish_task(ctx: OfficeContext, answer: str | int | float | None = None) -> Result:
    """Finish the task. Give the answer here when the task asks a question.

    Args:
        answer: the answer to a question task; leave empty otherwise.
    """
    text = None if answer is None else str(answer)
    return Result(observation="Task finished.", data={"answer": text})


@app.operation
def list_files(ctx: OfficeContext, path: str = ".") -> Result:
    """List the files under a folder of the office (recursively), with their sizes.

    Args:
        path: folder inside the office; the office root by default.
    """
    root = ctx.office.resolve(path)
    if not root.exists():
        raise OpError("file_not_found", f"no such folder: {path}")
    if root.is_file():
        files = [root]
    else:
        files = sorted(p for p in root.rglob("*") if p.is_file())
    rows = [{"path": ctx.office.relpath(p), "size": p.stat().st_size} for p in files]
    if not rows:
        return Result(observation=f"No files under {path}.", data=[])
    text = "\n".join(f"{r['path']} ({r['size']} bytes)" for r in rows)
    return Result(observation=text, data=rows)
