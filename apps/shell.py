"""The shell app: one ``bash -c`` command per action, run in the sandbox of testbed/sandbox.py."""

from __future__ import annotations

import os

from officesim.apps.registry import App, OfficeContext, OpError, Result
from officesim.testbed.quota import office_usage
from officesim.testbed.sandbox import Limits, SandboxError, SandboxResult, run_command

app = App("shell", "Run shell commands (bash) in the office folder, inside a sandbox without network.")

DEFAULT_TIMEOUT = 10.0


def command_limits(ctx: OfficeContext) -> Limits:
    """Limits from the settings: the time limit (``shell_timeout``), the memory of the command's
    processes together (env ``OFFICESIM_SHELL_MEMORY_MB``, default 1024) and the office's disk quota
    (the server passes ``office_quota_bytes``); one file may take at most what the quota leaves.
    Code programs (server/code.py) run under the same limits, with their own time limit."""
    try:
        timeout = float(ctx.settings.get("shell_timeout", DEFAULT_TIMEOUT))
    except (TypeError, ValueError):
        timeout = DEFAULT_TIMEOUT
    limits = Limits(timeout=max(0.1, timeout))
    try:
        limits.max_tree_memory_mb = int(float(os.environ.get("OFFICESIM_SHELL_MEMORY_MB") or limits.max_tree_memory_mb))
    except ValueError:
        pass
    quota = int(ctx.settings.get("office_quota_bytes") or 0)
    if quota > 0:
        limits.quota_bytes = quota
        left_mb = max(0, quota - office_usage(ctx.office.root)) >> 20
        limits.max_file_mb = max(1, min(limits.max_file_mb, left_mb + 1))
    return limits


def _observation(command: str, res: SandboxResult, limits: Limits) -> str:
    """The output, then notes on truncation / time limit, then the exit code."""
    lines = [f"$ {command}"]
    if res.output:
        lines.append(res.output.rstrip("\n"))
    if res.truncated:
        lines.append(f"[output truncated: showing the first {limits.max_output} of {res.output_chars} characters]")
    if res.timed_out:
        lines.append(f"[stopped: the command exceeded the time limit of {limits.timeout:g} s and was killed]")
    else:
        lines.append(f"[exit code {res.exit_code}]")
    return "\n".join(lines)


@app.operation(time_limit=40)  # the command's own limit (10 s) plus preparing and returning the office
def command(ctx: OfficeContext, command: str) -> Result:
    """Run a bash command with the office folder as the working directory and show its output.

    The default sandbox (bubblewrap) has no network and sees only the office (as /testbed) and
    read-only system programs; commands are killed at the session's time limit. The shell mode
    "unsafe" (setting shell_mode or env OFFICESIM_SHELL) runs the command directly on the host
    without any isolation and must only be chosen explicitly for trusted debugging.

    Args:
        command: the bash command line, e.g. "ls -R data" or "grep -ri invoice data".
    """
    if not command.strip():
        raise OpError("bad_arguments", "argument 'command': the command is empty")
    limits = command_limits(ctx)
    try:
        res = run_command(ctx.office.root, command, ctx.settings.get("shell_mode"), limits)
    except SandboxError as exc:
        raise OpError("sandbox_error", str(exc)) from None
    if res.stopped:
        shown = res.output.rstrip("\n")[-2000:]
        raise OpError("resource_limit", f"the command was stopped: {res.stopped}."
                      + (f" Its output until then (end):\n{shown}" if shown else ""))
    data = {"output": res.output, "exit_code": res.exit_code, "timed_out": res.timed_out,
            "truncated": res.truncated}
    return Result(observation=_observation(command, res, limits), data=data)
