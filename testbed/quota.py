"""The disk quota of an office: how much it holds, and the message when it holds too much.

Usage counts every regular file by the larger of its length and the blocks it occupies (a sparse
file counts by its length: copying or parsing it would cost that much), plus one block for every
other entry (folders, links). The quota itself is a setting (``OFFICESIM_OFFICE_QUOTA_MB``, default
512); writing operations check it before they write, and a shell command is stopped when the office
grows past it while the command runs (testbed/sandbox.py).
"""

from __future__ import annotations

import os

MB = 1 << 20
BLOCK = 4096


def default_quota_bytes() -> int:
    try:
        return int(float(os.environ.get("OFFICESIM_OFFICE_QUOTA_MB") or 512) * MB)
    except ValueError:
        return 512 * MB


def office_usage(root: str | os.PathLike, stop_above: int | None = None) -> int:
    """Bytes the office holds; stops counting once past ``stop_above`` (the answer is then > it)."""
    total = 0
    stack = [os.fspath(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    total += BLOCK
                elif entry.is_file(follow_symlinks=False):
                    total += max(st.st_size, st.st_blocks * 512)
                else:
                    total += BLOCK
                if stop_above is not None and total > stop_above:
                    return total
    return total


def quota_message(used: int, quota: int) -> str:
    return (f"the office holds {used / MB:,.1f} MB, over its disk quota of {quota / MB:,.0f} MB; "
            f"delete or shrink files (e.g. with the shell app) before writing more")
