"""The shell sandbox allows no nested user namespace (bubblewrap's --disable-userns), whether the server
runs as root or not; everything else a command does still works, and so does a code program's channel."""

from __future__ import annotations

import shutil

import pytest

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None or shutil.which("unshare") is None,
                                reason="bubblewrap or unshare is not installed")


@pytest.fixture(autouse=True)
def default_mode(ctx, monkeypatch):
    monkeypatch.delenv("OFFICESIM_SHELL", raising=False)
    ctx.settings["shell_timeout"] = 10


def sh(run, command):
    result = run("shell", "command", command=command)
    assert result.ok, result.observation
    return result.data


@pytest.mark.parametrize("command", ["unshare -Ur true", "unshare -U true", "unshare -Urnm true"])
def test_no_user_namespace_inside_the_shell(run, command):
    got = sh(run, f"{command}; echo rc=$?")
    assert "rc=0" not in got["output"] and "rc=" in got["output"], got["output"]
    assert "unshare failed" in got["output"]


def test_the_command_has_no_capability_and_is_not_root(run):
    got = sh(run, "id -u; grep -E '^Cap(Prm|Eff|Amb)' /proc/self/status")
    lines = got["output"].split()
    assert lines[0] != "0"
    assert lines[1:] == ["CapPrm:", "0000000000000000", "CapEff:", "0000000000000000", "CapAmb:", "0000000000000000"]


def test_the_office_is_still_writable_and_read_back(run, office):
    got = sh(run, "mkdir -p data/out && echo hello > data/out/x.txt && cat data/out/x.txt")
    assert got["output"] == "hello\n" and got["exit_code"] == 0
    assert (office.root / "data" / "out" / "x.txt").read_text() == "hello\n"
