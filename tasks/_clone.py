"""Cloning an upstream benchmark at its pinned commit, for the importers run without ``--source``."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


def clone_pinned(repository: str, commit: str, name: str, marker: str, dest: Path | None = None) -> Path:
    """A checkout of ``repository`` at ``commit`` (needs git and the network), kept in the temporary
    folder as ``<name>-<commit>``; reused when ``marker`` (a path inside it) exists."""
    dest = Path(dest or Path(tempfile.gettempdir()) / f"{name}-{commit[:7]}")
    if (dest / marker).exists():
        return dest
    tmp = Path(tempfile.mkdtemp(prefix=f"{name}-clone-"))
    try:
        subprocess.run(["git", "clone", "--quiet", "--no-checkout", repository, str(tmp / "repo")], check=True,
                       capture_output=True, timeout=300)
        subprocess.run(["git", "-C", str(tmp / "repo"), "checkout", "--quiet", commit], check=True,
                       capture_output=True, timeout=300)
        shutil.move(str(tmp / "repo"), str(dest))
    except (OSError, subprocess.SubprocessError) as exc:
        raise RuntimeError(f"could not clone {repository} at {commit[:7]} ({exc}); "
                           "give a checkout with --source DIR") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest
