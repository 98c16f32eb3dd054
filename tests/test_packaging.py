"""pyproject.toml installs without setuptools warnings of the project's making: every folder that
Python could import under the installed packages is listed in ``packages`` (setuptools warns about
each one it finds unlisted, ~30 lines apiece), ``license`` is an SPDX expression, and the build
backend (build_backend/officesim_build.py) is setuptools' less its notice on editable installs."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _importable(name: str) -> bool:
    return name.isidentifier() and name != "__pycache__"


def test_every_importable_folder_with_files_is_a_listed_package():
    setuptools = PYPROJECT["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    missing = []
    for package, folder in setuptools["package-dir"].items():
        assert package in listed, package
        stack = [(package, ROOT / folder)]
        while stack:
            name, path = stack.pop()
            for child in path.iterdir():
                if child.is_dir() and _importable(child.name):
                    sub = f"{name}.{child.name}"
                    if any(p.is_file() for p in child.iterdir()) and sub not in listed:
                        missing.append(sub)
                    stack.append((sub, child))
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_listed_packages_exist_and_the_dockerfile_makes_their_folders():
    setuptools = PYPROJECT["tool"]["setuptools"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    loop = dockerfile[dockerfile.index("for p in "):dockerfile.index("; do")]
    made = set(loop.replace("\\", " ").split()[2:])
    for package in setuptools["packages"]:
        top = ".".join(package.split(".")[:2])
        folder = Path(setuptools["package-dir"][top], *package.split(".")[2:])
        assert (ROOT / folder).is_dir(), package
        # the Dockerfile's dependency layer installs from pyproject.toml alone: each folder must exist there
        assert folder.as_posix() in made, f"Dockerfile: add {folder.as_posix()} to the dependency layer's folders"


def test_the_build_backend_is_setuptools_less_its_editable_notice():
    system = PYPROJECT["build-system"]
    folder = ROOT / system["backend-path"][0]
    assert (folder / f"{system['build-backend']}.py").is_file()
    # the Dockerfile's dependency layer builds from pyproject.toml, so it needs the backend beside it
    assert f"COPY {system['backend-path'][0]} " in (ROOT / "Dockerfile").read_text()
    # setuptools' hooks, all of them, and build_editable wrapped (the build environment's setuptools, not
    # this one's, runs it: checked by reading, not importing)
    text = (folder / f"{system['build-backend']}.py").read_text()
    assert "from setuptools.build_meta import *" in text and "def build_editable(" in text


def test_license_is_an_spdx_expression():
    assert isinstance(PYPROJECT["project"]["license"], str)
    assert any(r.startswith("setuptools>=") and tuple(map(int, r.split(">=")[1].split("."))) >= (77,)
               for r in PYPROJECT["build-system"]["requires"])
