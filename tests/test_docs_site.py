"""The documentation: docs/ builds as a site with `mkdocs build --strict` (a link to a missing page or
heading, or a page left out of the nav, fails it), and the README stays short with its links alive."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def build(root: Path, site: Path) -> subprocess.CompletedProcess:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[docs]' (make install does)")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=root, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_the_site_builds_strict(tmp_path):
    out = build(REPO, tmp_path / "site")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file()
    # the contract is rendered from tasks/FORMAT.md itself
    assert "Evaluation record" in (tmp_path / "site" / "format" / "index.html").read_text(encoding="utf-8")


def _nav_files(nav) -> set[str]:
    files: set[str] = set()
    for item in nav:
        for value in item.values() if isinstance(item, dict) else [item]:
            files |= _nav_files(value) if isinstance(value, list) else {value}
    return files


def test_every_page_is_in_the_nav():
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = {p.name for p in (REPO / "docs").glob("*.md")}
    assert pages == _nav_files(config["nav"])


def test_a_broken_link_fails_the_build(tmp_path):
    """The strictness is real: the same site with one link to a missing heading does not build."""
    root = tmp_path / "copy"
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    (root / "tasks").mkdir()
    shutil.copy(REPO / "tasks" / "FORMAT.md", root / "tasks" / "FORMAT.md")
    page = root / "docs" / "ci.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the limits](security.md#no-such-heading).\n",
                    encoding="utf-8")
    out = build(root, tmp_path / "site")
    assert out.returncode != 0
    assert "no-such-heading" in out.stdout + out.stderr


def test_the_readme_is_short_and_its_links_resolve():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    targets = [t for t in LINK.findall(text) if "://" not in t]
    assert any(t.startswith("docs/") for t in targets)
    for target in targets:
        path, _, anchor = target.partition("#")
        assert (REPO / path).is_file(), f"README links to {path}, which does not exist"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", (REPO / path).read_text(encoding="utf-8"), re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert anchor in slugs, f"README links to {target}: no such heading"


def test_the_readme_quick_start_is_make_run_and_make_test():
    """The two quick-start commands exist as Makefile targets, and make test builds the site too."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = quick.split("```bash", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in block.strip().splitlines()] == ["make run", "make test"]
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    install = re.search(r"pip install -q -e \"\.\[([^\]]*)\]\"", makefile)
    assert install and "docs" in install.group(1).split(","), "make install must install the docs extra"
