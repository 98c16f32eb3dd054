"""Office.resolve: agent paths stay inside the office."""

from __future__ import annotations

import os

import pytest

from officesim.apps.registry import OpError


def refused(office, path, code="path_outside_office"):
    with pytest.raises(OpError) as info:
        office.resolve(path)
    assert info.value.code == code, info.value.message
    return info.value.message


def test_relative_and_testbed_forms_map_inside(office):
    assert office.resolve("data/x.xlsx") == office.root / "data" / "x.xlsx"
    assert office.resolve("/testbed/data/x.xlsx") == office.root / "data" / "x.xlsx"
    assert office.resolve("/testbed") == office.root
    assert office.resolve("./data/x") == office.root / "data" / "x"
    assert office.resolve(str(office.root / "data" / "x")) == office.root / "data" / "x"


def test_dotdot_refused(office):
    assert "'..'" in refused(office, "../secret")
    refused(office, "data/../../secret")
    refused(office, "/testbed/../etc/passwd")
    refused(office, "data/..")


def test_absolute_outside_refused(office):
    refused(office, "/etc/passwd")
    refused(office, "/testbedx/data")  # a prefix of /testbed is not /testbed
    refused(office, str(office.root) + "x/file")


def test_nul_byte_refused(office):
    assert "NUL" in refused(office, "data/x\x00.txt")


def test_empty_path_is_bad_arguments(office):
    refused(office, "", code="bad_arguments")
    refused(office, "   ", code="bad_arguments")


def test_symlink_out_refused(office, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    os.symlink(outside, office.root / "data" / "link")
    os.symlink(outside / "secret.txt", office.root / "data" / "file-link")
    refused(office, "data/link/secret.txt")
    refused(office, "data/link")
    refused(office, "data/file-link")
    refused(office, "/testbed/data/link/new-file")  # would create a file outside


def test_symlink_inside_allowed(office):
    (office.root / "data" / "real.txt").write_text("x")
    os.symlink("real.txt", office.root / "data" / "alias.txt")
    assert office.resolve("data/alias.txt") == office.root / "data" / "alias.txt"


def test_dangling_symlink_out_refused(office, tmp_path):
    os.symlink(tmp_path / "not-yet", office.root / "data" / "dangling")
    refused(office, "data/dangling")


def test_well_known_places(office):
    assert office.mailbox("Maya.Lin@northwind.test") == office.root / "emails" / "maya.lin@northwind.test"
    assert office.mailbox("a@x.test", "sent") == office.root / "emails" / "a@x.test" / "sent"
    assert office.calendar("a@x.test") == office.root / "calendar" / "a@x.test.ics"
    with pytest.raises(OpError) as info:
        office.mailbox("../../etc")
    assert info.value.code == "bad_arguments"
