"""``eval --engine ray`` refuses what it cannot do, before any cluster is involved: without Ray it says
how to install it, and options of the local engine's servers are refused. Needs no Ray."""

from __future__ import annotations

import sys

import pytest

from officesim.runner.cli import main as cli_main
from officesim.runner.ray_engine import import_ray
from officesim.runner.run import RunError


def test_without_ray_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError, as when not installed
    with pytest.raises(RunError, match=r"pip install 'officesim\[ray\]'"):
        import_ray()


def test_the_ray_engine_refuses_a_server(tmp_path, capsys):
    code = cli_main(["eval", "--engine", "ray", "--server", "http://127.0.0.1:9", "--task", "budget-add-total-001",
                     "--out", str(tmp_path / "run"), "--progress", "off"])
    assert code == 2
    assert "--server applies to the local engine only" in capsys.readouterr().err
    assert not (tmp_path / "run" / "results.jsonl").exists()


def test_engine_options_parse():
    from officesim.runner.cli import build_parser

    args = build_parser().parse_args(["eval", "--engine", "ray", "--ray-address", "auto", "--ray-resource", "office",
                                      "--ray-concurrency", "4"])
    assert (args.engine, args.ray_address, args.ray_resource, args.ray_concurrency) == ("ray", "auto", "office", 4)
    assert build_parser().parse_args(["eval"]).engine == "local"
