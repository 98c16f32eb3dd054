"""The shell sandbox: run one ``bash -c`` command against an office, confined and bounded.

A backend turns (office root, command, limits) into a ``SandboxResult``. Backends:

- ``bwrap`` (default): bubblewrap. New pid, net, ipc, uts (and cgroup) namespaces, so no network
  and no view of host processes; the office bound read-write at ``/testbed`` (the working
  directory), ``/usr`` read-only (``/bin``, ``/lib*``, ``/sbin`` are symlinks into it), a tiny
  synthetic ``/etc`` (with ImageMagick's configuration and policy, read-only), a private size-capped
  ``/tmp`` tmpfs, a fresh ``/proc`` and a minimal ``/dev``. Nothing else of the host is visible,
  and nothing but the office is writable.
- ``unsafe``: a plain subprocess in the office directory. No isolation at all; only for trusted
  local debugging, and only when asked for explicitly.

Process limits. ``RLIMIT_NPROC`` is ignored for processes whose host uid is root, and a user
namespace created by root maps the sandbox user back to host root. So when the server runs as
root, bubblewrap runs *without* a user namespace and the command is started through ``setpriv``
as an unprivileged host uid with every capability dropped; the office tree is lent to that uid
(chowned) for the duration of the command and given back afterwards. When the server is not
root, bubblewrap creates a user namespace and the caller's own (non-root) uid is limited.

No nested user namespaces (the way into most user-namespace privilege escalations): bubblewrap's
``--disable-userns`` forbids the command to create one (``unshare -Ur`` fails inside). It needs a
user namespace of bubblewrap's making, so as root, after ``setpriv``, a second bubblewrap run as the
lent uid makes one (mapping only that uid) around the command, over the same mounts
(``--dev-bind / /``). It cannot be the only bubblewrap: as that uid it could not reach the office
below the server's private directories.
Inside, ``ulimit`` caps processes, address space and file size; the whole sandbox is killed
when the time limit is reached (killing bubblewrap takes its pid namespace down with it).

Totals. Per-process limits do not bound a command that forks: the resident memory of the whole
process tree is summed every 0.1 s (psutil) and the tree is killed past ``max_tree_memory_mb``;
the office's size is measured as often and the command killed when it passes the disk quota
(``ulimit -f`` is also lowered to what is left of the quota). cgroup v2 would make both exact,
but it needs a delegated subtree, which neither the build machine (cgroup v1 for memory) nor the
Docker image (read-only cgroupfs) offers; a command can overshoot either bound by what it
allocates or writes within one polling interval.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol

from officesim.testbed.office import own_files
from officesim.testbed.quota import office_usage

SANDBOX_ROOT = "/testbed"
SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# ImageMagick (convert, identify, mogrify) is the shell's image tool; its configuration, with the
# distribution's security policy (resource limits, no PostScript/PDF/URL coders, no '@file' reads), is
# visible read-only, so the tool runs under that policy and not its compiled-in defaults.
IMAGEMAGICK_ETC = ("/etc/ImageMagick-6", "/etc/ImageMagick-7")
UID_BASE = 200_000  # host uids lent the office when the server runs as root
UID_SPAN = 100_000


class SandboxError(Exception):
    """The sandbox itself could not run the command (not the command failing)."""


@dataclass
class Limits:
    """Resource bounds for one command."""

    timeout: float = 10.0
    max_output: int = 20_000  # characters kept of the combined stdout+stderr
    max_processes: int = 128
    max_memory_mb: int = 2048  # address space per process
    max_file_mb: int = 256  # largest file a command may write
    tmp_mb: int = 64  # size of the private /tmp
    max_tree_memory_mb: int = 1024  # resident memory of all the command's processes together
    quota_bytes: int = 0  # disk quota of the office (0: none); the command stops when it passes it


@dataclass
class SandboxResult:
    """What one command did: its output (combined, possibly cut) and how it ended."""

    output: str
    exit_code: int | None
    timed_out: bool
    truncated: bool
    output_chars: int  # characters produced in total (before the cut)
    stopped: str | None = None  # why the sandbox stopped it early: a message naming the limit


class Backend(Protocol):
    """A way of running a command against an office directory."""

    name: str

    def run(self, office_root: Path, command: str, limits: Limits, pass_fds: tuple[int, ...] = ()) -> SandboxResult: ...


# ----------------------------------------------------------------------------------------------
# running a process with a time limit and an output cap


def _read_capped(stream, cap_bytes: int, sink: dict) -> None:
    """Keep the first ``cap_bytes`` of a stream and count the rest (so a flood cannot fill memory)."""
    kept = bytearray()
    total = 0
    while True:
        chunk = stream.read(65536)
        if not chunk:
            break
        total += len(chunk)
        if len(kept) < cap_bytes:
            kept += chunk[: cap_bytes - len(kept)]
    sink["bytes"] = bytes(kept)
    sink["total"] = total


def _kill_group(proc: subprocess.Popen) -> None:
    """Kill the process group the command was started in (it leads its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_process(argv: list[str], cwd: str | None, env: dict | None, limits: Limits,
                pass_fds: tuple[int, ...] = (), office_root: Path | None = None) -> SandboxResult:
    """Run ``argv`` in a new session; kill its whole process group at the time limit, or when its
    processes pass the memory bound or the office its disk quota (see ``_watch``)."""
    try:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True, pass_fds=pass_fds,
        )
    except OSError as exc:
        raise SandboxError(f"could not start {argv[0]}: {exc}") from exc
    sink: dict = {}
    # Read a little more than the cap in bytes: multi-byte characters still fill max_output chars.
    reader = threading.Thread(target=_read_capped, args=(proc.stdout, limits.max_output * 4, sink), daemon=True)
    reader.start()
    timed_out, stopped = _watch(proc, limits, office_root)
    if timed_out or stopped:
        _kill_group(proc)
        proc.wait()
    # Background children that escaped the group may still hold the pipe: stop waiting for them.
    reader.join(timeout=2.0)
    if reader.is_alive():
        _kill_group(proc)
        reader.join(timeout=2.0)
    proc.stdout.close()
    result = _result(sink, proc.returncode, timed_out, limits)
    result.stopped = stopped
    return result


POLL_S = 0.1  # how often a running command's memory and the office's size are looked at


def _watch(proc: subprocess.Popen, limits: Limits, office_root: Path | None) -> tuple[bool, str | None]:
    """Wait for the command: (timed out, why it was stopped early or None).

    Two bounds are enforced by looking every ``POLL_S``: the resident memory of the whole process
    tree (per-process ``ulimit -v`` alone would let 128 processes take 2 GB each) and the office's
    disk usage against its quota (``ulimit -f`` bounds one file, not the sum). A command can pass
    either by what it does within one interval before it is stopped.
    """
    import psutil

    deadline = time.monotonic() + limits.timeout
    tree_limit = limits.max_tree_memory_mb << 20
    disk_limit = 0
    if limits.quota_bytes and office_root is not None:
        disk_limit = max(limits.quota_bytes, office_usage(office_root))  # shrinking an over-full office is allowed
    try:
        top = psutil.Process(proc.pid)
    except psutil.Error:
        top = None
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return True, None
        try:
            proc.wait(timeout=min(POLL_S, remaining))
            return False, None
        except subprocess.TimeoutExpired:
            pass
        if top is not None and tree_limit:
            rss = _tree_rss(top)
            if rss > tree_limit:
                return False, (f"its processes used {rss / (1 << 20):,.0f} MB of memory together, over the "
                               f"limit of {limits.max_tree_memory_mb:,} MB for a command")
        if disk_limit:
            used = office_usage(office_root, stop_above=disk_limit)
            if used > disk_limit:
                return False, (f"it grew the office past its disk quota of {limits.quota_bytes / (1 << 20):,.0f} MB "
                               f"(the office holds more than {used / (1 << 20):,.0f} MB)")


def _tree_rss(top) -> int:
    import psutil

    total = 0
    try:
        procs = [top, *top.children(recursive=True)]
    except psutil.Error:
        return 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def _result(sink: dict, returncode: int, timed_out: bool, limits: Limits) -> SandboxResult:
    """Decode and cut the captured output."""
    text = sink.get("bytes", b"").decode("utf-8", errors="replace")
    total_bytes = sink.get("total", 0)
    truncated = len(text) > limits.max_output or total_bytes > len(sink.get("bytes", b""))
    chars = len(text) + max(0, total_bytes - len(sink.get("bytes", b"")))
    return SandboxResult(
        output=text[: limits.max_output], exit_code=None if timed_out else returncode,
        timed_out=timed_out, truncated=truncated, output_chars=chars,
    )


def _ulimit_wrapper(command: str, limits: Limits) -> list[str]:
    """bash that sets hard+soft limits, then runs the command in a fresh bash."""
    setup = (
        f"ulimit -HS -u {limits.max_processes} -v {limits.max_memory_mb * 1024} "
        f"-f {limits.max_file_mb * 1024} -c 0 || exit 125; "
        'exec bash -c "$1"'
    )
    return ["bash", "--noprofile", "--norc", "-c", setup, "officesim-shell", command]


# ----------------------------------------------------------------------------------------------
# the unsafe backend


class UnsafeBackend:
    """A plain subprocess in the office directory: UNSAFE, the command sees and may change the host."""

    name = "unsafe"

    def run(self, office_root: Path, command: str, limits: Limits, pass_fds: tuple[int, ...] = ()) -> SandboxResult:
        env = {"PATH": os.environ.get("PATH", SANDBOX_PATH), "HOME": str(office_root), "LANG": "C.UTF-8"}
        return run_process(["bash", "-c", command], str(office_root), env, limits, pass_fds=pass_fds,
                           office_root=office_root)


# ----------------------------------------------------------------------------------------------
# the bubblewrap backend


def _etc_files(uid: int, gid: int) -> dict[str, str]:
    """A synthetic /etc: just enough for tools that look the user up."""
    return {
        "/etc/passwd": f"root:x:0:0:root:/root:/usr/sbin/nologin\noffice:x:{uid}:{gid}:office:/tmp:/bin/bash\n",
        "/etc/group": f"root:x:0:\noffice:x:{gid}:\n",
        "/etc/hostname": "office\n",
        "/etc/hosts": "127.0.0.1 localhost office\n",
    }


def _data_fd(text: str) -> int:
    """A readable fd holding ``text`` (for bwrap --ro-bind-data)."""
    r, w = os.pipe()
    os.write(w, text.encode())  # tiny files: fit in the pipe buffer
    os.close(w)
    return r


def office_uid(office_root: Path) -> int:
    """The host uid lent an office: stable per office, so concurrent sessions rarely share a count."""
    return UID_BASE + zlib.crc32(str(office_root).encode()) % UID_SPAN


def _walk(root: Path):
    """Every entry below ``root`` (root included), never following symlinks."""
    yield root
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            yield Path(dirpath) / name


def lend_office(root: Path, uid: int) -> None:
    """Make the office tree owned by ``uid`` so the unprivileged command can change it."""
    try:
        for path in _walk(root):
            os.lchown(path, uid, uid)
    except OSError as exc:
        raise SandboxError(f"could not prepare the office for the sandbox: {exc}") from exc


def return_office(root: Path, owner: tuple[int, int]) -> None:
    """Give the office back: original owner, no set-id bits, no fifos/sockets/devices left behind."""
    for path in _walk(root):
        st = os.lstat(path)
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode)):
            os.unlink(path)  # a fifo would hang whoever reads the office next
            continue
        os.lchown(path, *owner)
        if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o6000:
            os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o6000)


class BwrapBackend:
    """bubblewrap: the command sees only the office (read-write) and read-only system files."""

    name = "bwrap"

    def __init__(self, bwrap: str | None = None):
        self.bwrap = bwrap or shutil.which("bwrap")

    def run(self, office_root: Path, command: str, limits: Limits, pass_fds: tuple[int, ...] = ()) -> SandboxResult:
        """``pass_fds``: descriptors the command inherits (a code program's channel to its session)."""
        if not self.bwrap:
            raise SandboxError("bubblewrap (bwrap) is not installed; install it, or choose another shell_mode")
        root = Path(office_root).resolve()
        as_root = os.geteuid() == 0
        uid = office_uid(root) if as_root else 1000
        fds: list[int] = []
        status_r, status_w = os.pipe()
        fds.append(status_w)
        owner = (root.stat().st_uid, root.stat().st_gid) if as_root else None
        try:
            if owner is not None:
                lend_office(root, uid)
            argv = self._argv(root, command, limits, uid, as_root, fds)
            argv[1:1] = ["--json-status-fd", str(status_w)]
            result = run_process(argv, None, {"PATH": SANDBOX_PATH}, limits, pass_fds=tuple(fds) + tuple(pass_fds),
                                 office_root=root)
        finally:
            for fd in fds:
                os.close(fd)
            if owner is not None:
                return_office(root, owner)
        with os.fdopen(status_r, "rb") as status:
            started = b"child-pid" in status.read()
        if not started:  # bwrap reports the command's pid once the sandbox is up
            raise SandboxError(f"bubblewrap could not start the sandbox: {result.output.strip()[:500] or 'no reason given'}")
        return result

    def _argv(self, root: Path, command: str, limits: Limits, uid: int, as_root: bool, fds: list[int]) -> list[str]:
        """The bwrap command line (see the module docstring for the layout)."""
        argv = [self.bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--hostname", "office"]
        if not as_root:
            argv += ["--unshare-user", "--uid", str(uid), "--gid", str(uid), "--disable-userns"]
        argv += ["--ro-bind", "/usr", "/usr"]
        for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            if os.path.exists(f"/usr/{name}"):
                argv += ["--symlink", f"usr/{name}", f"/{name}"]
        argv += ["--proc", "/proc", "--dev", "/dev",
                 "--size", str(limits.tmp_mb << 20), "--perms", "1777", "--tmpfs", "/tmp",
                 "--dir", "/etc"]
        for path, text in _etc_files(uid, uid).items():
            fds.append(_data_fd(text))
            argv += ["--perms", "0644", "--ro-bind-data", str(fds[-1]), path]
        for path in ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives") + IMAGEMAGICK_ETC:
            argv += ["--ro-bind-try", path, path]
        argv += ["--bind", str(root), SANDBOX_ROOT, "--chdir", SANDBOX_ROOT, "--clearenv",
                 "--setenv", "PATH", SANDBOX_PATH, "--setenv", "HOME", "/tmp",
                 "--setenv", "LANG", "C.UTF-8", "--setenv", "TERM", "dumb", "--setenv", "USER", "office", "--"]
        if as_root:
            inner = self.bwrap if self.bwrap.startswith("/usr/") else "bwrap"  # found on the sandbox's PATH
            argv += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                     "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs",
                     inner, "--unshare-user", "--uid", str(uid), "--gid", str(uid), "--disable-userns",
                     "--dev-bind", "/", "/", "--chdir", SANDBOX_ROOT, "--die-with-parent", "--"]
        return argv + _ulimit_wrapper(command, limits)


# ----------------------------------------------------------------------------------------------
# choosing a backend

BACKENDS: dict[str, Callable[[], Backend]] = {"bwrap": BwrapBackend, "unsafe": UnsafeBackend}


def choose_backend(mode: str | None) -> Backend:
    """The backend for a mode; the default is bwrap, never silently anything weaker."""
    name = (mode or os.environ.get("OFFICESIM_SHELL") or "bwrap").strip().lower()
    if name not in BACKENDS:
        raise SandboxError(f"shell mode '{name}' is not available here (available: {', '.join(BACKENDS)})")
    return BACKENDS[name]()


def run_command(office_root: Path, command: str, mode: str | None = None, limits: Limits | None = None,
                pass_fds: tuple[int, ...] = ()) -> SandboxResult:
    """Run ``command`` against the office with the chosen backend (``pass_fds`` inherited by it). A
    command may write files in place, so a linked office's files become its own first."""
    own_files(office_root)
    return choose_backend(mode).run(Path(office_root), command, limits or Limits(), pass_fds=pass_fds)


FDS = "@officesim-channel-fds@"  # the last word of a code program's command: its channel's descriptors go there


def with_fds(command: str, fds: tuple[int, ...]) -> str:
    """``command`` with the channel's descriptor numbers in the process that starts the sandbox (a
    pool worker receives them under numbers of its own)."""
    head, sep, tail = command.rpartition(FDS)
    return head + " ".join(str(fd) for fd in fds) + tail if sep else command
