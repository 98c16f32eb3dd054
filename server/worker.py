"""The worker process side of server/pool.py: run one request at a time from a pipe.

A worker is forked from a forkserver that has imported this module, so every file library (python-docx,
openpyxl, pypdf, pypdfium2, Pillow, fpdf2, icalendar, the formulas engine) is loaded once and shared
copy-on-write; a new worker is ready in a few milliseconds. At start a worker

- leads its own process group (the pool kills the group: tesseract and the like go with it),
- asks the kernel to kill it when its parent (the forkserver, which exits with the server) dies,
- caps its address space at what it had after start-up plus the memory budget (``RLIMIT_AS``, soft
  limit only, so the shell sandbox may still set its own), so an allocation past the budget raises
  ``MemoryError`` instead of growing the server; the worker reports it and exits, and is replaced.

Requests (tuples, pickled over the pipe):

- ``("op", app, action, args, office_root, user, now, settings, quota_bytes)`` -> ``("done", ActionResult)``
- ``("parse", office_root, [relpath, ...], timezone)`` -> one ``("entry", relpath, entry)`` per file,
  then ``("done", None)``; the pool gives every file its own time budget
- ``("code", office_root, command, shell_mode, limits, n)`` followed on the socket by ``n`` descriptors
  (SCM_RIGHTS: the program's channel to its session, server/code.py) -> ``("done", SandboxResult)``, or
  ``("done", message)`` when the sandbox could not start; the command runs in the shell sandbox with
  those descriptors (their numbers here in place of its placeholder), as the shell app's commands do
- ``("grade", GradingJob)`` -> ``("done", EpisodeRecord)``: an ended session's evaluation (server/grading.py)
- ``("ping",)`` -> ``("done", pid)``

Host paths never leave a worker: the office root in any observation, message or data becomes
``/testbed``, the path agents use.
"""

from __future__ import annotations

import ctypes
import json
import os
import pickle
import resource
import signal
from pathlib import Path
from typing import Any

# Loaded here so the forkserver holds them and every worker starts warm.
import docx  # noqa: F401
import fpdf  # noqa: F401
import icalendar  # noqa: F401
import openpyxl  # noqa: F401
import PIL.Image  # noqa: F401
import pypdf  # noqa: F401
import pypdfium2  # noqa: F401

from officesim.apps import OfficeContext, find_operation
from officesim.apps.registry import ActionResult
from officesim.evaluators import load_checks
from officesim.testbed import guards  # noqa: F401  (configures Pillow's bomb limit)
from officesim.testbed.office import OFFICEBENCH_ROOT, Office
from officesim.testbed.parse import parse_file, too_large_entry
from officesim.testbed.quota import office_usage, quota_message

# the checks and their readers (~0.8 s of imports): a worker's first grading, and every new worker's, finds them loaded
load_checks()

PR_SET_PDEATHSIG = 1


def _die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask the kernel to send ``sig`` to this process when its parent dies."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the pool still kills the workers it replaces
        pass


# This module is imported once per server, by its forkserver (the pool's preload), never by the server
# itself: the forkserver dies with the server, even on kill -9 (it would otherwise wait for the end of
# a pipe that children it forked may still hold), and workers die with the forkserver (become_worker).
_die_with_parent()


def _vm_size() -> int:
    """This process's address space in bytes (VmSize)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def become_worker(env: dict[str, str], memory_bytes: int) -> None:
    """Process group, death with the parent, the allow-listed environment (server/workerenv.py: no
    token or secret; the start-up block inherited from the forkserver wiped), the address-space cap."""
    from officesim.server.workerenv import install_environment

    _die_with_parent()
    try:
        os.setsid()
    except OSError:
        pass
    # multiprocessing hands every child the write end of the pipe whose end of file tells the
    # forkserver that the server is gone; a worker holding it would keep the forkserver (and so,
    # through PDEATHSIG, itself) alive after a kill -9 of the server.
    from multiprocessing import forkserver

    alive = getattr(forkserver._forkserver, "_forkserver_alive_fd", None)
    if alive is not None:
        try:
            os.close(alive)
        except OSError:
            pass
        forkserver._forkserver._forkserver_alive_fd = None
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    install_environment(env)  # the allow-listed environment, everywhere the process keeps one
    from officesim.testbed.pickles import freeze_loaded

    freeze_loaded()  # reference states a worker loads are kept for many gradings: the collector skips them
    # (only those: a cached file's parse for one read is not frozen)
    if memory_bytes > 0:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = _vm_size() + memory_bytes
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def main(conn, env: dict[str, str], memory_bytes: int) -> None:
    """The worker loop (the target of the pool's processes)."""
    become_worker(env, memory_bytes)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return  # the pool closed the pipe: retire
        try:
            kind = request[0]
            if kind == "op":
                _send(conn, ("done", run_operation(*request[1:])))
            elif kind == "parse":
                parse_files(conn, *request[1:])
            elif kind == "code":
                conn.send(("done", run_program(conn, *request[1:])))
            elif kind == "grade":  # an evaluation (server/grading.py), under the pool's time limit
                from officesim.server.grade import run_job

                _send(conn, ("done", run_job(request[1])))
            elif kind == "ping":
                conn.send(("done", os.getpid()))
            else:
                conn.send(("error", f"unknown request {kind!r}"))
        except MemoryError:
            request = None
            try:
                conn.send(("memory", None))
            finally:
                os._exit(3)  # the heap may be fragmented: let the pool start a fresh worker


def run_operation(app: str, action: str, args: Any, root: str, user: str, now, settings: dict,
                  quota: int) -> ActionResult:
    """One operation on one office, with the disk quota checked before anything that writes."""
    op = find_operation(app, action)  # ``app`` is Operation.qualified_app (toolset:app outside the default)
    office = Office(root)
    ctx = OfficeContext(office=office, user=user, now=now, settings={**settings, "office_quota_bytes": quota})
    if op.writes and quota > 0:
        used = office_usage(office.root)
        if used >= quota:
            return ActionResult.failure("resource_limit", quota_message(used, quota))
    result = op.invoke(ctx, args)
    return bounded(scrub_result(result, str(office.root)))


def run_program(conn, root: str, command: str, mode: str | None, limits: Any, nfds: int) -> Any:
    """A code program in the sandbox, with the channel descriptors the pool sent behind the request."""
    import socket
    from multiprocessing import reduction

    from officesim.testbed.sandbox import SandboxError, run_command, with_fds

    with socket.fromfd(conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        fds = reduction.recvfds(sock, nfds) if nfds else []
    try:
        return run_command(Path(root), with_fds(command, tuple(fds)), mode, limits, pass_fds=tuple(fds))
    except SandboxError as exc:
        return str(exc)
    finally:
        for fd in fds:
            os.close(fd)


MAX_OBSERVATION_CHARS = int(os.environ.get("OFFICESIM_MAX_OBSERVATION_CHARS") or 200_000)
MAX_DATA_BYTES = 16 << 20


def bounded(result: ActionResult) -> ActionResult:
    """An observation no agent could read whole (a 200,000-cell sheet) is cut, saying so; data that
    would take more than 16 MB is left out. Sessions keep every observation in their history, so
    this also bounds what one action can add to the server's memory."""
    text = result.observation
    if len(text) > MAX_OBSERVATION_CHARS:
        result.observation = (text[:MAX_OBSERVATION_CHARS] + f"\n[observation cut: showing the first "
                              f"{MAX_OBSERVATION_CHARS:,} of {len(text):,} characters; read the rest in parts where the "
                              f"operation allows it, e.g. excel.read_file with start_row and end_row]")
        try:
            if len(pickle.dumps(result.data, protocol=pickle.HIGHEST_PROTOCOL)) > MAX_DATA_BYTES:
                result.data = None
        except Exception:
            result.data = None
    return result


def parse_files(conn, root: str, relpaths: list[str], timezone: str) -> None:
    """Parse files one by one, sending each entry as soon as it is ready."""
    base = Path(root)
    for rel in relpaths:
        try:
            entry = parse_file(base / rel, rel, timezone, root=base)
        except MemoryError:
            entry = too_large_entry("parsing it needs more memory than the limit of a worker")
        _send(conn, ("entry", rel, scrub(entry, root)))
    conn.send(("done", None))


# ---- no host path leaves a worker ----------------------------------------------------------------
def scrub(value: Any, root: str) -> Any:
    """``value`` with every occurrence of the office's host path replaced by /testbed."""
    if isinstance(value, str):
        return value.replace(root, OFFICEBENCH_ROOT) if root in value else value
    if isinstance(value, list):
        return [scrub(v, root) for v in value]
    if isinstance(value, tuple):
        return tuple(scrub(v, root) for v in value)
    if isinstance(value, dict):
        return {scrub(k, root): scrub(v, root) for k, v in value.items()}
    return value


def scrub_result(result: ActionResult, root: str) -> ActionResult:
    result.observation = scrub(result.observation, root)
    if result.error:
        result.error = scrub(result.error, root)
    result.data = scrub(result.data, root)
    return result


def _send(conn, message: tuple) -> None:
    """Send; a value pickle cannot carry (an exotic object in ``data``) goes as its JSON text form."""
    try:
        conn.send(message)
    except (pickle.PicklingError, TypeError, AttributeError):
        kind, *rest = message
        if kind == "done" and isinstance(rest[0], ActionResult):
            rest[0].data = json.loads(json.dumps(rest[0].data, default=str))
        elif kind == "entry":
            rest[1] = json.loads(json.dumps(rest[1], default=str))
        conn.send((kind, *rest))
