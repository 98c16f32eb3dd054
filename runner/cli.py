"""The ``officesim`` command: serve, validate, tasks list/generate, plus plug-in subcommands.

Other parts of the project add subcommands without editing this file: any module listed in
``PLUGINS`` that exists is imported and its ``add_subcommands(subparsers)`` is called; each
subcommand sets ``func`` (``args -> exit code``) with ``parser.set_defaults``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import threading
import time
from pathlib import Path

PLUGINS = ("officesim.runner.eval_command", "officesim.runner.import_command", "officesim.runner.mcp_command")


TASKS_HELP = "the tasks of this directory instead of the built-in suite (repeatable; --with-suite keeps the suite too)"
WITH_SUITE_HELP = "with --tasks: load the built-in suite beside those directories"


def _add_tasks_option(parser: argparse.ArgumentParser) -> None:
    """--tasks, --with-suite and --no-suite, meaning the same in every command (eval adds its own, alike)."""
    parser.add_argument("--tasks", action="append", default=[], metavar="DIR", help=TASKS_HELP)
    add_suite_options(parser)


def add_suite_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--with-suite", action="store_true", help=WITH_SUITE_HELP)
    parser.add_argument("--no-suite", action="store_true",
                        help="leave the built-in suite out (what --tasks does unless --with-suite)")


def wants_suite(args: argparse.Namespace) -> bool:
    """Whether a command loads the built-in suite: alone, or beside --tasks with --with-suite.
    ValueError when --with-suite and --no-suite are both given."""
    if args.with_suite and args.no_suite:
        raise ValueError("--with-suite and --no-suite exclude each other")
    return args.with_suite or not (args.tasks or args.no_suite)


def cmd_serve(args: argparse.Namespace) -> int:
    from officesim.runner.serving import processes_wanted, serve_processes

    try:
        include_suite = wants_suite(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.docker is not None:
        return serve_in_docker(args, include_suite)
    processes = 1 if args.uds else processes_wanted(args.processes)
    if not args.uds:  # a process behind the router (--uds) is announced by the router
        print(f"officesim serve: starting on http://{args.host}:{args.port} "
              f"({processes} process{'es' if processes > 1 else ''}; loading the tasks)…", file=sys.stderr, flush=True)
    if processes > 1:  # one process per core behind the router (server/router.py), which loads no app
        return serve_processes(processes=processes, host=args.host, port=args.port, task_dirs=args.tasks,
                               include_suite=include_suite, idle_timeout=args.idle_timeout,
                               max_sessions=args.max_sessions, workers=args.workers, log_level=args.log_level)

    from officesim.server.app import create_app
    from officesim.server.manager import ServerSettings
    from officesim.tasks.loader import TaskLoadError

    overrides = {"include_suite": include_suite, "idle_timeout": args.idle_timeout,
                 "max_sessions": args.max_sessions, "workers": args.workers, "process_index": args.process_index,
                 "process_count": args.process_count}
    try:
        app = create_app(args.tasks, ServerSettings.from_env(**overrides))
    except TaskLoadError as exc:
        print(exc, file=sys.stderr)
        return 2
    serve(app, args.host, args.port, args.log_level, uds=args.uds)
    return 0


def serve_in_docker(args: argparse.Namespace, include_suite: bool) -> int:
    """``serve --docker[=IMAGE]``: the officesim image serving on --host/--port until Ctrl-C or SIGTERM,
    then removed (runner/dockerserver.py); the token is OFFICESIM_TOKEN, else a random one, printed."""
    from officesim.runner.dockerserver import DEFAULT_IMAGE, IMAGE_ENV, DockerServer, DockerServerError, DockerUnavailable

    image = args.docker or os.environ.get(IMAGE_ENV) or DEFAULT_IMAGE
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    try:
        with DockerServer(image, [Path(d) for d in args.tasks], include_suite, token=os.environ.get("OFFICESIM_TOKEN"),
                          progress=say, host=args.host, host_port=args.port) as server:
            print(f"officesim serving in Docker ({image}) on {server.url}; token: {server.token} "
                  f"(Authorization: Bearer ...); Ctrl-C stops and removes the container", file=sys.stderr, flush=True)
            while server.running():
                time.sleep(1.0)
            say(f"the container of {image} stopped")
            return 1
    except (DockerUnavailable, DockerServerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


# ---- serving: prompt shutdown --------------------------------------------------------------------
SHUTDOWN_GRACE_S = 3.0  # requests in flight get this long to be answered after SIGTERM
HARD_EXIT_S = 10.0  # past this after SIGTERM the process exits whatever is still running


def serve(app, host: str, port: int, log_level: str = "info", uds: str | None = None) -> None:
    """Run ``app`` with uvicorn until SIGTERM/SIGINT, stopping within seconds whatever is running.

    On the first signal the worker pool is killed at once (operations in flight answer that the server
    is stopping), uvicorn gets ``SHUTDOWN_GRACE_S`` to answer open requests, then offices are removed;
    a timer ends the process after ``HARD_EXIT_S`` in any case. When started with ``OFFICESIM_PARENT_FD``
    (runner/localserver.py does), the server also stops itself once its parent process is gone, even
    if the parent was killed with SIGKILL.
    """
    import uvicorn

    from officesim.server.app import KEEP_ALIVE_S

    config = uvicorn.Config(app, host=host, port=port, uds=uds, log_level=log_level, access_log=False,
                            timeout_keep_alive=KEEP_ALIVE_S, timeout_graceful_shutdown=SHUTDOWN_GRACE_S)
    server = uvicorn.Server(config)
    uvicorn_handle_exit = server.handle_exit

    def handle_exit(sig, frame) -> None:  # uvicorn installs this for SIGINT and SIGTERM
        if not server.should_exit:
            threading.Thread(target=app.state.manager.pool.close, name="officesim-stop-workers", daemon=True).start()
            threading.Thread(target=_exit_later, args=(HARD_EXIT_S,), name="officesim-hard-exit", daemon=True).start()
        uvicorn_handle_exit(sig, frame)

    server.handle_exit = handle_exit
    from officesim.runner.localserver import watch_parent

    watch_parent()
    # the kept workers and the MCP SDK start once the server listens (server/app.py's lifespan)
    app.state.listening = threading.Event()
    threading.Thread(target=_announce, args=(server, None if uds else f"http://{host}:{port}", app.state.listening),
                     name="officesim-announce", daemon=True).start()
    server.run()


def _announce(server, address: str | None, listening: threading.Event) -> None:
    """Once the server listens (or stops trying): set ``listening``, and say where it listens
    (whatever the log level), with the time it took."""
    while not server.started and not server.should_exit:
        time.sleep(0.02)
    listening.set()
    if server.started and address:
        print(f"officesim serving on {address} (ready {time.monotonic() - _STARTED:.1f} s after start)",
              file=sys.stderr, flush=True)


_STARTED = time.monotonic()


def _exit_later(seconds: float) -> None:
    time.sleep(seconds)
    os._exit(0)


def cmd_validate(args: argparse.Namespace) -> int:
    from officesim.runner.validate import main as validate

    try:
        include_suite = wants_suite(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return validate(args.tasks, args.task, workers=args.workers, server_url=args.server,
                    token=os.environ.get("OFFICESIM_TOKEN") or None, include_suite=include_suite,
                    servers=args.servers, mutants=args.mutants, json_out=args.json, split=args.split,
                    sample_size=args.sample, progress=None if args.quiet else sys.stderr)


def cmd_tasks_list(args: argparse.Namespace) -> int:
    from officesim.tasks.loader import TaskLoadError, load_tasks

    try:
        tasks = load_tasks([Path(d) for d in args.tasks], include_suite=wants_suite(args))
    except (TaskLoadError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 2
    from officesim.tasks.difficulty import difficulty

    rows = [{**tasks[k].public(), "scenario": tasks[k].scenario, "difficulty": difficulty(tasks[k])} for k in sorted(tasks)]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for row in rows:
            print(f"{row['id']:40} {row['category']}  {','.join(row['apps']):24} {row['split']}")
        print(f"{len(rows)} task(s)")
    return 0


def cmd_tasks_generate(args: argparse.Namespace) -> int:
    from officesim.tasks.generate import generate

    try:
        paths = generate(args.family, args.seed, args.count, Path(args.out))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="officesim", description="A simulated office for evaluating LLM agents.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--idle-timeout", type=float, default=None, help="seconds before an idle session expires")
    serve.add_argument("--max-sessions", type=int, default=None, help="cap on live sessions")
    serve.add_argument("--workers", type=int, default=None,
                       help="worker processes kept by each server process for operations (default: the usable cores shared "
                            "among the processes; more start when all are held by long operations)")
    serve.add_argument("--processes", type=int, default=None, metavar="N",
                       help="server processes behind one port, each with its sessions and workers (default: env "
                            "OFFICESIM_PROCESSES, else one per usable core; 1: a single process)")
    serve.add_argument("--uds", default=None, help=argparse.SUPPRESS)  # one process of several (runner/serving.py)
    serve.add_argument("--process-index", type=int, default=None, help=argparse.SUPPRESS)
    serve.add_argument("--process-count", type=int, default=None, help=argparse.SUPPRESS)
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--docker", nargs="?", const="", default=None, metavar="IMAGE",
                       help="serve from the officesim image in Docker instead (default env OFFICESIM_IMAGE, else "
                            "officesim:latest; pulled when absent), with docs/docker.md's security settings, until "
                            "Ctrl-C; the container is then removed (--host, --port and --tasks apply)")
    _add_tasks_option(serve)
    serve.set_defaults(func=cmd_serve)

    validate = sub.add_parser("validate", help="prove every task's gold, no-op, wrong and right solutions (and "
                                               "with --mutants its derived mutants) through the API")
    validate.add_argument("--task", action="append", default=[], metavar="ID", help="only this task; repeatable")
    validate.add_argument("--workers", type=int, default=4)
    validate.add_argument("--server", default=None, metavar="URL", help="use a running server instead of local ones")
    validate.add_argument("--servers", type=int, default=None, metavar="N",
                          help="local server processes to spread tasks over (default: 1 for a few tasks, else one per core up to 4)")
    validate.add_argument("--mutants", action="store_true",
                          help="also derive mutants from each gold solution: wrong ones must fail, right ones pass")
    validate.add_argument("--json", default=None, metavar="FILE", help="with --mutants: write the mutation figures here")
    validate.add_argument("--sample", type=int, default=None, metavar="N",
                          help="with --mutants: at most N mutants of each class per task, spread over its steps "
                               "(a hard task derives ~250; every one replays the whole gold)")
    validate.add_argument("--split", choices=["test", "train", "hard"], default=None,
                          help="only tasks of this split (default: every split but hard)")
    validate.add_argument("--quiet", action="store_true",
                          help="no progress line on stderr as each task finishes; only the final report")
    _add_tasks_option(validate)
    validate.set_defaults(func=cmd_validate)

    tasks = sub.add_parser("tasks", help="list or generate tasks")
    tasks_sub = tasks.add_subparsers(dest="tasks_command", metavar="SUBCOMMAND")
    listing = tasks_sub.add_parser("list", help="list the tasks")
    listing.add_argument("--json", action="store_true")
    _add_tasks_option(listing)
    listing.set_defaults(func=cmd_tasks_list)
    gen = tasks_sub.add_parser("generate", help="draw tasks of a family into a train split")
    gen.add_argument("--family", required=True)
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--count", type=int, required=True)
    gen.add_argument("--out", required=True, metavar="DIR")
    gen.set_defaults(func=cmd_tasks_generate)
    tasks.set_defaults(func=lambda args: (tasks.print_help(), 2)[1])

    add_plugin_subcommands(sub)
    return parser


def add_plugin_subcommands(subparsers: argparse._SubParsersAction) -> None:
    """Let modules such as runner/eval_command.py register their own subcommands."""
    for name in PLUGINS:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            importlib.import_module(name).add_subcommands(subparsers)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # output piped into head and the like
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
