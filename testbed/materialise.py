"""Fast per-session offices: build a task's office once as a template, then copy it per session.

Building an office runs openpyxl, python-docx, fpdf2 and Pillow (hundreds of ms); copying a
template of a few small files takes a few ms. Templates live in a cache directory keyed by the
task id and a hash of everything that shapes the office (the task's content, its ``files/`` tree,
and the builder code), so an edited task never reuses a stale template. Concurrent builders (threads
or processes) each build into a private temporary directory and publish it with one atomic
``os.rename``; the loser discards its copy.

Removing an office is a rename (microseconds) and the actual deletion happens on a background
thread: on a busy disk, unlinking a directory tree costs tens of milliseconds that a client
deleting its session should not wait for. Pending deletions finish before the process exits.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import queue
import shutil
import tempfile
import threading
import uuid
from pathlib import Path

from officesim.testbed import convert
from officesim.testbed import builders
from officesim.testbed.builders import build_office
from officesim.testbed.office import Office
from officesim.testbed.specs import OfficeSpec

# Templates are rebuilt when the code that writes them changes (the builders and the PDF writer).
_BUILDER_CODE = hashlib.sha256(b"".join(Path(m.__file__).read_bytes() for m in (builders, convert))).hexdigest()[:16]
_known: dict[tuple[str, str], Path] = {}
_known_lock = threading.Lock()


def cache_root() -> Path:
    """Where templates live: $OFFICESIM_CACHE, else a per-user folder in the temp directory."""
    env = os.environ.get("OFFICESIM_CACHE")
    root = Path(env) if env else Path(tempfile.gettempdir()) / f"officesim-templates-{os.getuid()}"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _tree_digest(h, folder: Path) -> None:
    """Feed ``h`` the names, sizes and modification times of a folder's files."""
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        if path.is_file():
            st = path.stat()
            h.update(f"{path.relative_to(folder).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())


_source_digests: dict[tuple, str] = {}


def _source_digest(source: Path) -> str:
    """The digest of a shared office's tree, computed once per process for one version of the folder
    (its inode and time: an import writes a new folder and renames it in). Walking hundreds of files on
    every session start would cost more than copying them."""
    st = source.stat()
    key = (str(source), st.st_ino, st.st_mtime_ns)
    with _known_lock:
        digest = _source_digests.get(key)
    if digest is None:
        h = hashlib.sha256()
        _tree_digest(h, source)
        digest = h.hexdigest()
        with _known_lock:
            _source_digests[key] = digest
    return digest


def office_source(task: OfficeSpec) -> Path | None:
    """The folder a task's office starts from: its world's office (testbed/worlds), built into the cache
    once, or its ``office_from`` folder."""
    world = getattr(task, "world", None)
    if world:
        from officesim.testbed.worlds import world_folder

        return world_folder(world, cache_root())
    return builders.office_source(task)


def shared_source(task: OfficeSpec) -> Path | None:
    """The shared folder a task's office is exactly (``office_from`` with no builders and no files/):
    such tasks share one template, whatever their ids."""
    source = office_source(task)
    if source is None or task.office or (task.source_dir and (Path(task.source_dir) / "files").is_dir()):
        return None
    return source


def task_key(task: OfficeSpec) -> str:
    """A hash of everything the initial office depends on."""
    h = hashlib.sha256()
    h.update(_BUILDER_CODE.encode())
    source = office_source(task)
    if source is not None:
        h.update(str(source).encode())
        h.update(_source_digest(source).encode())
        if shared_source(task) is not None:
            h.update(task.user.lower().encode())
            return h.hexdigest()[:20]
    shaping = task.model_dump(mode="json", by_alias=True,
                              include={"id", "user", "user_name", "now", "timezone", "office"})
    h.update(json.dumps(shaping, sort_keys=True).encode())
    if task.source_dir:
        files = Path(task.source_dir) / "files"
        for path in sorted(files.rglob("*")) if files.is_dir() else []:
            if path.is_file():
                st = path.stat()
                h.update(f"{path.relative_to(files).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:20]


def template_for(task: OfficeSpec) -> Path:
    """The task's built office in the cache (built now if missing). Treat it as read-only."""
    root = cache_root()
    key = task_key(task)
    final = root / (f"shared-{key}" if shared_source(task) is not None else f"{task.id}-{key}")
    with _known_lock:
        if _known.get((task.id, key)) == final and final.is_dir():
            return final
    if not final.is_dir():
        tmp = Path(tempfile.mkdtemp(prefix=f".build-{task.id}-", dir=root))
        try:
            build_office(task, tmp / "office", office_source(task))
            try:
                os.rename(tmp / "office", final)
            except OSError:
                if not final.is_dir():  # not a lost race: a real failure
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    with _known_lock:
        _known[(task.id, key)] = final
    return final


def new_office(task: OfficeSpec, sessions_dir: str | os.PathLike) -> Office:
    """A fresh private copy of the task's template under ``sessions_dir`` (a unique folder)."""
    template = template_for(task)
    base = Path(sessions_dir)
    base.mkdir(parents=True, exist_ok=True)
    dest = base / f"{task.id}-{uuid.uuid4().hex[:12]}"
    if shared_source(task) is not None or getattr(task, "world", None):
        # A shared office or a lived-in world (a thousand files) is linked, not copied: every operation
        # writes a file by replacing it (Office.replacing, testbed/safefs.py), never in place, and a
        # sandboxed command first gets private copies (testbed.office.own_files): no session reaches the template.
        _link_tree(template, dest)
    else:
        shutil.copytree(template, dest, copy_function=shutil.copyfile)
    return Office(dest)


def _link_tree(src: Path, dest: Path) -> None:
    """``dest`` as a tree of hard links to ``src``'s files (a copy where linking fails)."""
    src = str(src)
    for dirpath, dirnames, filenames in os.walk(src):
        target = os.path.join(str(dest), os.path.relpath(dirpath, src))
        os.makedirs(target, exist_ok=True)
        for name in filenames:
            here, there = os.path.join(dirpath, name), os.path.join(target, name)
            try:
                os.link(here, there)
            except OSError:
                shutil.copy2(here, there)


def remove_office(office: Office) -> None:
    """Delete a session's office; never a template. The path is gone when this returns."""
    root = Path(office.root)
    if root.parent == cache_root().resolve():
        raise ValueError(f"{root} is a cached template, not a session office")
    trash = root.with_name(f".removed-{root.name}-{uuid.uuid4().hex[:8]}")
    try:
        os.rename(root, trash)
    except FileNotFoundError:
        return
    except OSError:
        shutil.rmtree(root, ignore_errors=True)
        return
    _start_remover()
    _removals.put(trash)


_removals: "queue.Queue[Path]" = queue.Queue()
_remover: threading.Thread | None = None
_remover_lock = threading.Lock()


def _remove_loop() -> None:
    while True:
        path = _removals.get()
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            _removals.task_done()


def _start_remover() -> None:
    global _remover
    with _remover_lock:
        if _remover is None or not _remover.is_alive():
            _remover = threading.Thread(target=_remove_loop, name="officesim-remover", daemon=True)
            _remover.start()


def wait_for_removals() -> None:
    """Block until every office handed to remove_office is deleted from disk."""
    if _remover is not None and _remover.is_alive():
        _removals.join()


atexit.register(wait_for_removals)
