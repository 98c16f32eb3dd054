"""Shell app and sandbox: confinement, no network, time/output/process limits, clear errors."""

from __future__ import annotations

import os
import shutil
import socket
import time

import pytest

from officesim.testbed import sandbox

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


@pytest.fixture(autouse=True)
def default_mode(ctx, monkeypatch):
    monkeypatch.delenv("OFFICESIM_SHELL", raising=False)
    ctx.settings["shell_timeout"] = 5


def sh(run, command):
    return run("shell", "command", command=command)


def test_runs_in_office_and_writes_there(run, office):
    (office.root / "data" / "a.txt").write_text("hello office\n")
    owner = office.root.stat().st_uid
    r = sh(run, "pwd; cat data/a.txt; echo made > data/b.txt; mkdir -p data/new && echo x > data/new/c.txt")
    assert r.ok, r.observation
    assert r.data["exit_code"] == 0 and r.data["timed_out"] is False
    assert "hello office" in r.data["output"] and r.data["output"].startswith("/testbed\n")
    assert (office.root / "data" / "b.txt").read_text() == "made\n"
    # the office is given back to its owner after the command
    assert (office.root / "data" / "new" / "c.txt").stat().st_uid == owner
    assert (office.root / "data" / "a.txt").stat().st_uid == owner
    assert r.observation.startswith("$ pwd") and r.observation.endswith("[exit code 0]")


def test_exit_code_and_stderr(run):
    r = sh(run, "echo out; echo err >&2; exit 3")
    assert r.ok and r.data["exit_code"] == 3
    assert "out" in r.data["output"] and "err" in r.data["output"]
    assert "[exit code 3]" in r.observation


def test_cannot_see_outside_the_office(run, office, tmp_path):
    secret = tmp_path / "secret.txt"  # next to the office on the host
    secret.write_text("top secret")
    r = sh(run, f"cat {secret}; cat ../secret.txt; cat /testbed/../secret.txt")
    assert "top secret" not in r.data["output"] and r.data["exit_code"] != 0
    for place in (str(tmp_path), "/root", "/home"):
        r = sh(run, f"ls {place}")
        assert r.data["exit_code"] != 0 and "No such file or directory" in r.data["output"], place
    visible = set(sh(run, "ls /").data["output"].split())
    assert visible <= {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc", "tmp", "testbed"}


def test_cannot_write_outside_the_office(run):
    for target in ("/usr/officesim-x", "/etc/officesim-x", "/officesim-x", "/proc/officesim-x"):
        r = sh(run, f"touch {target}")
        assert r.data["exit_code"] != 0, target
        assert not os.path.exists(target)
    assert sh(run, "touch /tmp/ok && echo fine").data["output"] == "fine\n"  # private scratch space


def test_no_network(run):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    try:
        r = sh(run, f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=2)'")
        assert r.data["exit_code"] != 0
        assert "Error" in r.data["output"]
        with pytest.raises(OSError):
            listener.accept()  # nothing reached the host's loopback
    finally:
        listener.close()
    r = sh(run, "getent hosts example.com")
    assert r.data["exit_code"] != 0


def test_time_limit_kills(run, ctx):
    ctx.settings["shell_timeout"] = 1
    started = time.monotonic()
    r = sh(run, "sleep 100; echo never")
    assert time.monotonic() - started < 60
    assert r.ok and r.data["timed_out"] is True and r.data["exit_code"] is None
    assert "never" not in r.data["output"]
    assert "time limit of 1 s" in r.observation


def test_background_children_are_killed(run, office, ctx):
    ctx.settings["shell_timeout"] = 1
    started = time.monotonic()
    r = sh(run, "(sleep 3; echo late > data/late.txt) & disown; setsid sleep 100 & sleep 100")
    assert r.data["timed_out"] and time.monotonic() - started < 60
    time.sleep(3.5)
    assert not (office.root / "data" / "late.txt").exists()


def test_huge_output_is_cut(run):
    r = sh(run, "yes | head -c 5000000")
    assert r.data["truncated"] is True
    assert len(r.data["output"]) == 20_000
    assert "output truncated" in r.observation and "5000000" in r.observation


FORK_COUNT = r"""python3 - <<'EOF'
import os, time
n = 0
try:
    while n < 2000:
        if os.fork() == 0:
            time.sleep(20)
            os._exit(0)
        n += 1
except OSError as exc:
    print("stopped:", exc.__class__.__name__)
print("forked", n)
EOF"""


def test_process_count_is_limited(run, ctx):
    ctx.settings["shell_timeout"] = 10
    r = sh(run, FORK_COUNT)
    assert "stopped: BlockingIOError" in r.data["output"], r.observation
    forked = int(r.data["output"].split("forked")[1].split()[0])
    assert forked < sandbox.Limits().max_processes


def test_memory_is_limited(run):
    r = sh(run, "python3 -c 'x = bytearray(4 * 1024**3)'")
    assert r.data["exit_code"] != 0 and "MemoryError" in r.data["output"]


def test_unknown_mode_and_missing_bwrap(run, ctx, monkeypatch):
    ctx.settings["shell_mode"] = "teleport"
    r = sh(run, "echo hi")
    assert not r.ok and r.error["code"] == "sandbox_error" and "teleport" in r.observation
    ctx.settings["shell_mode"] = "bwrap"
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    r = sh(run, "echo hi")
    assert not r.ok and r.error["code"] == "sandbox_error" and "bwrap" in r.observation


def test_bwrap_failing_to_start_is_an_error(run, monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: str(fake))
    r = sh(run, "echo hi")
    assert not r.ok and r.error["code"] == "sandbox_error"
    assert "No permissions" in r.observation


def test_env_selects_unsafe_only_when_asked(run, office, monkeypatch):
    monkeypatch.setenv("OFFICESIM_SHELL", "unsafe")
    r = sh(run, "pwd")
    assert r.ok and r.data["output"].strip() == str(office.root)
    monkeypatch.delenv("OFFICESIM_SHELL")
    assert sh(run, "pwd").data["output"].strip() == "/testbed"


def test_empty_command(run):
    r = sh(run, "   ")
    assert not r.ok and r.error["code"] == "bad_arguments"
