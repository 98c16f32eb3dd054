"""The system app of the ``workbench`` tool set: switch_app among WorkBench's apps, and finish_task.

WorkBench has no file operations, so this system app offers only these two (apps/system.py has the
OfficeBench set's).
"""

from __future__ import annotations

from officesim.apps.registry import SYSTEM_APP, TOOLSETS, App, OfficeContext, OpError, Result
from officesim.apps.system import finish_task

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
