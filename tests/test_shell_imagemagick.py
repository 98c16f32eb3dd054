"""The office shell's image tool is ImageMagick itself, under its distribution's security policy:
an agent can enlarge or crop a scan before reading it, and the policy's limits hold in the sandbox."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None or shutil.which("identify") is None,
                                reason="bubblewrap or ImageMagick is not installed (make system-deps)")


@pytest.fixture(autouse=True)
def default_mode(ctx, monkeypatch):
    monkeypatch.delenv("OFFICESIM_SHELL", raising=False)
    ctx.settings["shell_timeout"] = 30


def sh(run, command):
    result = run("shell", "command", command=command)
    assert result.ok, result.observation
    return result.data


def test_convert_is_imagemagick_and_changes_an_image(run, office):
    Image.new("RGB", (40, 20), "white").save(office.root / "scan.png")
    data = sh(run, "convert -version | head -1; convert scan.png -resize 300% -colorspace Gray big.png "
                   "&& identify -format '%w %h %[colorspace]\\n' big.png")
    assert data["exit_code"] == 0, data["output"]
    assert "ImageMagick" in data["output"]
    assert "120 60 Gray" in data["output"]
    with Image.open(office.root / "big.png") as big:
        assert big.size == (120, 60)


def test_the_security_policy_applies_in_the_sandbox(run, office):
    (office.root / "list.txt").write_text("scan.png\n")
    Image.new("RGB", (4, 4), "white").save(office.root / "scan.png")
    data = sh(run, "convert -list policy | grep -c 'Policy:'; convert @list.txt out.png; echo rc=$?")
    assert int(data["output"].splitlines()[0]) > 0, data["output"]  # the policy file is read
    assert "not allowed by the security policy" in data["output"]  # an '@file' read is refused
    assert "rc=1" in data["output"] and not (office.root / "out.png").exists()
