"""The officesim server in its Docker image, started for one run: ``eval --server docker[:IMAGE]``.

``DockerServer`` starts the image through the Docker SDK (the ``docker`` package) with the settings
of the ``server`` service of docker-compose.yml (docs/docker.md): every capability dropped,
``no-new-privileges``, the system-call profile docker/seccomp.json (the one relaxation the shell
sandbox needs), a read-only root file system with a private ``/tmp``, memory and process limits, and
the API published on 127.0.0.1 only, on a free port Docker picks. The server gets a random token
(or the one given) and the host's ``OFFICESIM_*`` settings the compose service passes; task folders
outside the image's suite (``--tasks``, ``--task``) are mounted read-only.

The image is used when present, else pulled. Readiness is ``/health``, awaited as long as a private
server may take (runner/localserver.py's ``start_timeout``: scaled by the tasks it loads and the
machine's load). The container is removed however the block ends: normally, by an exception, by
Ctrl-C or SIGTERM (their handlers remove it at once, so the episodes in flight end promptly), and at
interpreter exit as a last resort. Even ``kill -9`` of the process leaves no server running: the
container's standard input is held open by this process only, the server stops when it reaches end
of file (``OFFICESIM_PARENT_FD=0``, as a private server watches its pipe), and Docker then removes
the stopped container (``auto_remove``).

``DockerUnavailable`` (no SDK, no engine answering) and ``DockerServerError`` (no image, a container
that exits or never answers) carry one line for the user.
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable

import httpx

from officesim.runner.localserver import PARENT_FD_ENV, count_task_files, load_average, start_timeout
from officesim.server.cores import usable_cores

DOCKER_PREFIX = "docker"  # --server docker or --server docker:IMAGE
IMAGE_ENV = "OFFICESIM_IMAGE"  # the image when --server docker names none (as in docker-compose.yml)
DEFAULT_IMAGE = "officesim:latest"
SECCOMP_ENV = "OFFICESIM_SECCOMP"  # path of the system-call profile, when not the project's docker/seccomp.json
MEM_LIMIT_ENV = "OFFICESIM_MEM_LIMIT"  # the container's memory limit (docker-compose.yml's, default 4g)
CONTAINER_PORT = 8000
PIDS_LIMIT = 2048
TMPFS = {"/tmp": "size=2g,mode=1777"}
LABEL = "officesim.eval"  # on every container started here: docker ps --filter label=officesim.eval
# the host's settings the compose `server` service passes through (docker-compose.yml), when set
PASSED_ENV = ("OFFICESIM_MAX_SESSIONS", "OFFICESIM_IDLE_TIMEOUT", "OFFICESIM_PROCESSES", "OFFICESIM_WORKERS",
              "OFFICESIM_MAX_WORKERS", "OFFICESIM_OP_TIME_LIMIT", "OFFICESIM_OP_TIME_LIMITS",
              "OFFICESIM_WORKER_MEMORY_MB", "OFFICESIM_OFFICE_QUOTA_MB", "OFFICESIM_SHELL_MEMORY_MB",
              "OFFICESIM_FINISHED_GRACE")
PROGRESS_EVERY_S = 10.0
ENGINE_TIMEOUT_S = 60  # one call to the Docker engine (a pull streams within it)

_live: set["DockerServer"] = set()
_live_lock = threading.Lock()


class DockerUnavailable(RuntimeError):
    """No Docker SDK or no engine answering: the run cannot start."""


class DockerServerError(RuntimeError):
    """The image is missing and cannot be pulled, or the container exited or did not become healthy."""


def docker_image(server: str | None) -> str | None:
    """The image that ``--server`` asks for (``docker`` or ``docker:IMAGE``), else None (a URL)."""
    if not server:
        return None
    head, sep, image = server.partition(":")
    if head != DOCKER_PREFIX or (sep and image.startswith("//")):  # docker://host is a URL of sorts, not ours
        return None
    return image.strip() or os.environ.get(IMAGE_ENV) or DEFAULT_IMAGE


def connect(sdk: Any = None) -> Any:
    """A client of the Docker engine the environment names (DOCKER_HOST, else the local socket), checked
    with a ping; DockerUnavailable with one line saying what to do when there is none."""
    if sdk is None:
        try:
            import docker as sdk
        except ImportError:
            raise DockerUnavailable("--server docker needs the docker package (pip install docker)") from None
    try:
        client = sdk.from_env(timeout=ENGINE_TIMEOUT_S)
        client.ping()
    except Exception as exc:  # DockerException, connection errors, a socket without permission
        where = os.environ.get("DOCKER_HOST") or "the local socket"
        reason = " ".join(str(exc).split())[:200]
        raise DockerUnavailable(f"--server docker: no Docker engine answers at {where} ({reason}); start "
                                f"Docker, set DOCKER_HOST, or pass --server URL") from None
    return client


def seccomp_profile() -> str:
    """The system-call profile of docs/docker.md as the engine wants it (its JSON text, not a path):
    ``OFFICESIM_SECCOMP``, else the project's docker/seccomp.json (beside this package: runner/
    has a link to it that installs as a copy)."""
    here = Path(__file__).resolve().parent
    candidates = [Path(p) for p in [os.environ.get(SECCOMP_ENV)] if p] + [
        here / "docker-seccomp.json", here.parent / "docker" / "seccomp.json"]
    for path in candidates:
        if path.is_file():
            return json.dumps(json.loads(path.read_text()), separators=(",", ":"))
    raise DockerServerError(f"the system-call profile docker/seccomp.json was not found (looked in "
                            f"{', '.join(map(str, candidates))}); set {SECCOMP_ENV} to its path")


class DockerServer:
    """The officesim image as a container serving on 127.0.0.1; a context manager (see the module)."""

    def __init__(self, image: str, task_dirs: list[Path] | None = None, include_suite: bool = True, *,
                 client: Any = None, token: str | None = None, timeout: float | None = None,
                 progress: Callable[[str], None] | None = None, every: float = PROGRESS_EVERY_S,
                 host_port: int | None = None, host: str = "127.0.0.1"):
        self.image = image
        self.task_dirs = [Path(d).resolve() for d in task_dirs or []]
        self.include_suite = include_suite
        self.client = client  # None: connect() when starting
        self.token = token or secrets.token_urlsafe(16)
        self.timeout = timeout  # seconds to answer /health; None: start_timeout() for the tasks
        self.say = progress or (lambda _text: None)
        self.every = every
        self.host = host
        self.host_port = host_port  # None: a free port Docker picks
        self.port: int | None = None
        self.container: Any = None
        self._stdin: Any = None  # the attach socket that holds the container's standard input open
        self._previous_handlers: dict[int, Any] = {}
        self._stop_lock = threading.RLock()  # a signal handler may stop while stop() runs

    @property
    def url(self) -> str:
        return f"http://{'127.0.0.1' if self.host in ('0.0.0.0', '') else self.host}:{self.port}"

    # -- what the container is given ---------------------------------------------------------------
    def command(self) -> list[str]:
        cmd = ["serve", "--host", "0.0.0.0", "--port", str(CONTAINER_PORT)]
        for target in self.mounts().values():
            cmd += ["--tasks", target["bind"]]
        if self.task_dirs and self.include_suite:
            cmd.append("--with-suite")
        elif not self.include_suite and not self.task_dirs:
            cmd.append("--no-suite")
        return cmd

    def mounts(self) -> dict[str, dict]:
        """Each task folder, read-only, at /tasks/N/NAME (a task folder's name is its task's id)."""
        return {str(d): {"bind": f"/tasks/{i}/{d.name}", "mode": "ro"} for i, d in enumerate(self.task_dirs)}

    def environment(self) -> dict[str, str]:
        env = {k: os.environ[k] for k in PASSED_ENV if os.environ.get(k)}
        env["OFFICESIM_TOKEN"] = self.token
        env[PARENT_FD_ENV] = "0"  # the server stops once its standard input (held by this process) ends
        return env

    def options(self) -> dict[str, Any]:
        """The container's settings: those of the compose `server` service (docs/docker.md)."""
        return {
            "command": self.command(),
            "environment": self.environment(),
            "ports": {f"{CONTAINER_PORT}/tcp": (self.host, self.host_port)},
            "volumes": self.mounts(),
            "cap_drop": ["ALL"],
            "security_opt": ["no-new-privileges:true", f"seccomp={seccomp_profile()}"],
            "read_only": True,
            "tmpfs": dict(TMPFS),
            "mem_limit": os.environ.get(MEM_LIMIT_ENV) or "4g",
            "pids_limit": PIDS_LIMIT,
            "labels": {LABEL: str(os.getpid())},
            "name": f"officesim-eval-{os.getpid()}-{secrets.token_hex(3)}",
            "stdin_open": True,  # with no detach: StdinOnce, closed when this process's attach ends
            "auto_remove": True,  # removed by Docker once stopped, even if this process is killed
        }

    def health_limit(self) -> float:
        if self.timeout is not None:
            return self.timeout
        return start_timeout(count_task_files(self.task_dirs, self.include_suite), servers=1)

    # -- life cycle --------------------------------------------------------------------------------
    def start(self) -> "DockerServer":
        """Find or pull the image, create and start the container, and learn its port (no waiting)."""
        if self.client is None:
            self.client = connect()
        self._ensure_image()
        options = self.options()
        with _live_lock:
            _live.add(self)
        self.container = self.client.containers.create(self.image, **options)
        try:
            self._stdin = self.container.attach_socket(params={"stdin": 1, "stream": 1})
        except Exception:  # no hold on stdin: the container is still removed by stop() and at exit
            self._stdin = None
        self.container.start()
        self.container.reload()
        self.port = self._published_port()
        return self

    def _ensure_image(self) -> None:
        errors = _sdk_errors(self.client)
        try:
            self.client.images.get(self.image)
            return
        except errors.ImageNotFound:
            pass
        self.say(f"pulling {self.image} (not present locally)…")
        try:
            self.client.images.pull(self.image)
        except Exception as exc:
            reason = " ".join(str(exc).split())[:200]
            raise DockerServerError(f"the image {self.image} is not present and could not be pulled ({reason}); "
                                    f"build it with `make docker` or docker/build-local.sh, or name another: "
                                    f"--server docker:IMAGE") from None

    def _published_port(self) -> int:
        ports = (self.container.attrs.get("NetworkSettings") or {}).get("Ports") or {}
        for binding in ports.get(f"{CONTAINER_PORT}/tcp") or []:
            if binding.get("HostPort"):
                return int(binding["HostPort"])
        raise DockerServerError(f"the container of {self.image} has no published port for {CONTAINER_PORT}")

    def wait_healthy(self, timeout: float | None = None) -> None:
        """Wait for /health; a container that exits, or does not answer within the limit, raises
        DockerServerError with the end of its log (and is removed)."""
        limit = self.health_limit() if timeout is None else timeout
        started = time.monotonic()
        self.say(f"starting {self.image} in Docker on {self.url} (limit {limit:.0f} s; load average "
                 f"{load_average():.1f} on {usable_cores()} core(s))…")
        next_word = started + self.every
        next_look = started
        with httpx.Client(timeout=1.0, verify=False) as http:  # one client for every poll (plain HTTP)
            while time.monotonic() - started < limit:
                now = time.monotonic()
                if now >= next_look:  # is the container still there? (once a second)
                    next_look = now + 1.0
                    status = self._status()
                    if status not in ("created", "running", "restarting"):
                        log = self._log_tail()
                        self.stop()
                        raise DockerServerError(f"the officesim container of {self.image} stopped at start "
                                                f"(status {status}){':' + chr(10) + log if log else ''}")
                try:
                    if http.get(f"{self.url}/health").status_code == 200:
                        self.say(f"{self.image} ready ({time.monotonic() - started:.0f} s)")
                        return
                except httpx.HTTPError:
                    pass
                if now >= next_word:
                    next_word = now + self.every
                    self.say(f"starting {self.image} in Docker… ({now - started:.0f} s)")
                time.sleep(0.2)
        log = self._log_tail()
        self.stop()
        raise DockerServerError(f"the officesim container of {self.image} did not become healthy within "
                                f"{limit:.0f} s (OFFICESIM_START_TIMEOUT or --start-timeout sets the limit)"
                                f"{':' + chr(10) + log if log else ''}")

    def running(self) -> bool:
        return self.container is not None and self._status() in ("created", "running", "restarting")

    def _status(self) -> str:
        try:
            self.container.reload()
            return self.container.status
        except Exception:  # removed meanwhile (auto_remove after an exit)
            return "removed"

    def _log_tail(self, lines: int = 30) -> str:
        try:
            return self.container.logs(tail=lines).decode(errors="replace").strip()
        except Exception:
            return ""

    def stop(self) -> None:
        """Remove the container (forced: a running one is killed); idempotent, never raises."""
        with self._stop_lock:
            if self._stdin is not None:
                try:
                    self._stdin.close()
                except Exception:
                    pass
                self._stdin = None
            if self.container is not None:
                try:
                    self.container.remove(force=True)
                except Exception:  # already gone (auto_remove), or being removed
                    pass
                self.container = None
            with _live_lock:
                _live.discard(self)

    # -- signals: Ctrl-C and SIGTERM remove the container before the run unwinds --------------------
    def _install_signal_handlers(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(sig)
            self._previous_handlers[sig] = previous

            def handler(signum, frame, previous=previous):
                self.stop()
                if callable(previous) and previous not in (signal.SIG_DFL, signal.SIG_IGN):
                    return previous(signum, frame)
                if signum == signal.SIGINT:
                    raise KeyboardInterrupt
                raise SystemExit(128 + signum)

            signal.signal(sig, handler)

    def _restore_signal_handlers(self) -> None:
        for sig, previous in self._previous_handlers.items():
            signal.signal(sig, previous if previous is not None else signal.SIG_DFL)
        self._previous_handlers.clear()

    def __enter__(self) -> "DockerServer":
        self._install_signal_handlers()
        try:
            self.start()
            self.wait_healthy()
        except BaseException:
            self.stop()
            self._restore_signal_handlers()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            self._restore_signal_handlers()


def _sdk_errors(client: Any) -> Any:
    """The SDK's errors module (a fake client in the tests brings its own)."""
    errors = getattr(client, "errors", None)
    if errors is not None:
        return errors
    import docker.errors

    return docker.errors


@atexit.register
def _remove_leftovers() -> None:
    """Containers whose context did not end (``start()`` alone) do not outlive the interpreter."""
    with _live_lock:
        leftovers = list(_live)
    for server in leftovers:
        server.stop()
