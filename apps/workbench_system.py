"""The system app of the ``workbench`` tool set: switch_app among WorkBench's apps, finish_task, and
the two operations every tool set shares, ask_user and run_code (apps/system.py).

WorkBench has no file operations, so this system app has none (apps/system.py has the OfficeBench
set's).
"""

from __future__ import annotations

from officesim.apps.registry import SYSTEM_APP, TOOLSETS, App, OfficeContext, OpError, Result
from officesim.apps.system import ask_user, finish_task, run_code

NAMES = TOOLSETS["workbench"]
app = App(SYSTEM_APP, "Switch between WorkBench's applications and finish the task.", toolset="workbench")


def switch_app(ctx: OfficeContext, target_app: str) -> Result:
    """Switch to another application; afterwards only that app's actions are available.

    Args:
        target_app: one of {apps}.
    """
    target = target_app.strip().lower()
    if target not in NAMES:
        raise OpError("unknown_app", f"cannot switch to '{target_app}'; apps are: {', '.join(NAMES)}")
    return Result(observation=f"Switched to app {target}.", data={"current_app": target})


switch_app.__doc__ = switch_app.__doc__.format(apps=", ".join(NAMES))
app.operation(switch_app, inline=True)
app.operation(finish_task, inline=True)
app.operation(ask_user, inline=True)
app.operation(run_code, inline=True)
