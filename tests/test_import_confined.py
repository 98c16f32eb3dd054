"""The importers stay in their bounds: hostile source trees (traversal ids, links out of the source,
absolute paths, malformed JSON and CSV) are refused with one error line naming the file and the field,
nothing is written outside --out, and no task folder is left half-written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from officesim.runner.cli import main as cli
from officesim.tasks._confine import SourceError
from officesim.tasks.officebench.importer import import_officebench

ROOT = Path(__file__).resolve().parent.parent
WORKBENCH = Path(os.environ.get("OFFICESIM_WORKBENCH") or ROOT.parent / "shared" / "benchmarks" / "workbench")

OVERLAY = {"1-1/0": {"gold": [{"shell.command": {"command": "true"}}],
                     "checks": [{"contains": {"file": "data/notes.txt", "text": ["hello"]}}]}}


# ---- OfficeBench: a small source tree built here -------------------------------------------------
def _officebench(tmp_path: Path, evaluation: list | None = None, config: dict | None = None) -> Path:
    source = tmp_path / "officebench"
    task = source / "tasks" / "1-1"
    (task / "subtasks").mkdir(parents=True)
    (task / "testbed" / "data").mkdir(parents=True)
    (task / "reference").mkdir()
    (task / "testbed" / "data" / "notes.txt").write_text("hello\n")
    cfg = {"task": "Read data/notes.txt", "username": "Bob", "date": "2024-05-01", "time": "10:00 AM",
           "evaluation": evaluation if evaluation is not None else
           [{"function": "evaluate_contain", "args": {"file": "data/notes.txt", "keywords": ["hello"]}}]}
    cfg.update(config or {})
    (task / "subtasks" / "0.json").write_text(json.dumps(cfg))
    return source


def _host_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "host" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("HOST SECRET\n")
    return secret


def _nothing_written(out: Path) -> None:
    assert not out.exists() or not [p for p in out.iterdir()], sorted(p.name for p in out.iterdir())


def _no_secret_anywhere(tmp_path: Path) -> None:
    for path in tmp_path.rglob("*"):
        if path.is_file() and not path.is_symlink() and path.parent.name != "host":
            assert b"HOST SECRET" not in path.read_bytes(), path


def test_a_well_formed_source_imports(tmp_path):
    out = tmp_path / "out"
    report = import_officebench(_officebench(tmp_path), out, overlay=OVERLAY)
    assert report.imported == ["officebench-1-1-0"]
    assert (out / "officebench-1-1-0" / "files" / "data" / "notes.txt").read_text() == "hello\n"
    assert sorted(p.name for p in out.iterdir()) == ["officebench-1-1-0", "officebench-import.json"]


def test_a_link_in_the_testbed_out_of_the_source_is_refused(tmp_path):
    source = _officebench(tmp_path)
    (source / "tasks" / "1-1" / "testbed" / "data" / "stolen.txt").symlink_to(_host_secret(tmp_path))
    out = tmp_path / "out"
    with pytest.raises(SourceError, match=r"1-1/testbed: link data/stolen.txt: leads outside"):
        import_officebench(source, out, overlay=OVERLAY)
    _nothing_written(out)
    _no_secret_anywhere(tmp_path)


def test_a_link_inside_the_source_to_a_file_is_copied_as_the_file(tmp_path):
    source = _officebench(tmp_path)
    data = source / "tasks" / "1-1" / "testbed" / "data"
    (data / "again.txt").symlink_to(data / "notes.txt")
    out = tmp_path / "out"
    import_officebench(source, out, overlay=OVERLAY)
    copied = out / "officebench-1-1-0" / "files" / "data" / "again.txt"
    assert not copied.is_symlink() and copied.read_text() == "hello\n"


def test_a_link_to_a_folder_is_refused(tmp_path):
    source = _officebench(tmp_path)
    (source / "tasks" / "1-1" / "testbed" / "loop").symlink_to(source / "tasks" / "1-1" / "testbed")
    with pytest.raises(SourceError, match="link loop does not lead to a file"):
        import_officebench(source, tmp_path / "out", overlay=OVERLAY)
    _nothing_written(tmp_path / "out")


def test_a_subtask_folder_linked_out_of_the_source_is_refused(tmp_path):
    source = _officebench(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(source / "tasks" / "1-1", elsewhere)
    (source / "tasks" / "1-1").symlink_to(elsewhere)
    with pytest.raises(SourceError, match="leads outside"):
        import_officebench(source, tmp_path / "out", overlay=OVERLAY)
    _nothing_written(tmp_path / "out")


def test_a_special_file_in_the_testbed_is_refused(tmp_path):
    source = _officebench(tmp_path)
    os.mkfifo(source / "tasks" / "1-1" / "testbed" / "data" / "pipe")
    with pytest.raises(SourceError, match="data/pipe is not a regular file"):
        import_officebench(source, tmp_path / "out", overlay=OVERLAY)
    _nothing_written(tmp_path / "out")


def test_an_absolute_expected_file_is_refused(tmp_path):
    secret = _host_secret(tmp_path)
    source = _officebench(tmp_path, [{"function": "evaluate_exact_match",
                                      "args": {"doc_type": "xlsx", "result_file": "data/x.xlsx", "expected_file": str(secret)}}])
    with pytest.raises(SourceError, match=r"0\.json: field evaluation\[0\]\.args\.expected_file: absolute path"):
        import_officebench(source, tmp_path / "out", overlay={"1-1/0": {"gold": OVERLAY["1-1/0"]["gold"]}})
    _nothing_written(tmp_path / "out")


def test_a_reference_linked_out_of_the_source_is_refused(tmp_path):
    source = _officebench(tmp_path, [{"function": "evaluate_exact_match",
                                      "args": {"doc_type": "xlsx", "result_file": "data/x.xlsx",
                                               "expected_file": "../../../../reference/x.xlsx"}}])
    (source / "tasks" / "1-1" / "reference" / "x.xlsx").symlink_to(_host_secret(tmp_path))
    with pytest.raises(SourceError, match=r"args\.expected_file: leads outside"):
        import_officebench(source, tmp_path / "out", overlay={"1-1/0": {"gold": OVERLAY["1-1/0"]["gold"]}})
    _nothing_written(tmp_path / "out")


def _out_has_no_secret(out: Path) -> None:
    for path in out.rglob("*") if out.exists() else ():
        if path.is_file():
            assert b"HOST SECRET" not in path.read_bytes(), path


def test_a_hard_link_in_the_testbed_to_a_host_file_is_refused(tmp_path):
    source = _officebench(tmp_path)
    os.link(_host_secret(tmp_path), source / "tasks" / "1-1" / "testbed" / "data" / "stolen.txt")
    out = tmp_path / "out"
    with pytest.raises(SourceError, match=r"1-1/testbed: data/stolen.txt is a hard link \(2 names"):
        import_officebench(source, out, overlay=OVERLAY)
    _nothing_written(out)


def test_a_link_inside_the_source_to_a_hard_linked_file_is_refused_when_copied(tmp_path):
    """check_tree walks the folder it copies; a link in it may name a file elsewhere in the source,
    which the copy refuses on the file's open descriptor."""
    source = _officebench(tmp_path)
    os.link(_host_secret(tmp_path), source / "tasks" / "1-1" / "shared.txt")
    (source / "tasks" / "1-1" / "testbed" / "data" / "shared.txt").symlink_to(source / "tasks" / "1-1" / "shared.txt")
    out = tmp_path / "out"
    with pytest.raises(SourceError, match=r"1-1/testbed: data/shared.txt: is a hard link"):
        import_officebench(source, out, overlay=OVERLAY)
    _nothing_written(out)
    _out_has_no_secret(out)


def test_a_hard_linked_subtask_file_is_refused(tmp_path):
    source = _officebench(tmp_path)
    config = source / "tasks" / "1-1" / "subtasks" / "0.json"
    os.link(config, tmp_path / "elsewhere.json")
    with pytest.raises(SourceError, match=r"0\.json: is a hard link"):
        import_officebench(source, tmp_path / "out", overlay=OVERLAY)
    _nothing_written(tmp_path / "out")


@pytest.mark.parametrize("swap", ["folder to a link out", "file to a link", "file to a hard link"])
def test_what_is_read_is_checked_on_the_descriptor_not_the_path(tmp_path, monkeypatch, swap):
    """The path is swapped after it was checked and before it is opened: the open file is refused."""
    from officesim.tasks import _confine

    source = tmp_path / "source"
    (source / "d").mkdir(parents=True)
    (source / "d" / "f.txt").write_text("fine")
    secret = _host_secret(tmp_path)
    (secret.parent / "f.txt").write_text("HOST SECRET\n")
    checked = _confine.inside

    def check_then_swap(path, root, where):
        real = checked(path, root, where)
        if swap == "folder to a link out":
            shutil.rmtree(source / "d")
            (source / "d").symlink_to(secret.parent)
        elif swap == "file to a link":
            (source / "d" / "f.txt").unlink()
            (source / "d" / "f.txt").symlink_to(source / "d" / "g.txt")
            (source / "d" / "g.txt").write_text("also inside")
        else:
            (source / "d" / "f.txt").unlink()
            os.link(secret, source / "d" / "f.txt")
        return real

    monkeypatch.setattr(_confine, "inside", check_then_swap)
    expected = {"folder to a link out": "leads outside", "file to a link": "cannot be opened",
                "file to a hard link": "is a hard link"}[swap]
    with pytest.raises(SourceError, match=expected):
        _confine.read_source_text(source / "d" / "f.txt", source, "d/f.txt")


@pytest.mark.parametrize("path", ["/etc/passwd", "../../../etc/passwd", "data/../../x.txt"])
def test_a_checked_path_outside_the_office_is_refused(tmp_path, path):
    source = _officebench(tmp_path, [{"function": "evaluate_contain", "args": {"file": path, "keywords": ["x"]}}])
    with pytest.raises(SourceError, match=r"field evaluation\[0\]\.args\.file: "):
        import_officebench(source, tmp_path / "out", overlay={"1-1/0": {"gold": OVERLAY["1-1/0"]["gold"]}})


@pytest.mark.parametrize("config, field", [
    ({"date": "01/05/2024"}, "'date' and 'time'"),
    ({"username": "../../Bob"}, "'username'"),
    ({"task": 7}, "'task'"),
    ({"evaluation": {"function": "x"}}, "'evaluation'"),
    ({"evaluation": [["evaluate_contain"]]}, r"'evaluation\[0\]'"),
])
def test_a_malformed_field_is_named(tmp_path, config, field):
    source = _officebench(tmp_path, config=config)
    with pytest.raises(SourceError, match=rf"subtasks/0\.json: fields? {field}"):
        import_officebench(source, tmp_path / "out", overlay=OVERLAY)
    _nothing_written(tmp_path / "out")


def test_malformed_json_leaves_an_earlier_import_as_it_was(tmp_path, capsys):
    source = _officebench(tmp_path)
    out = tmp_path / "out"
    import_officebench(source, out, overlay=OVERLAY)
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    (source / "tasks" / "1-1" / "subtasks" / "0.json").write_text('{"task": "x", ')
    code = cli(["import", "officebench", "--source", str(source), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and "0.json: malformed JSON" in err
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before


def test_an_import_over_a_link_in_out_replaces_the_link_not_its_target(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "victim"
    target.mkdir()
    (target / "keep.txt").write_text("keep")
    (out / "officebench-1-1-0").symlink_to(target)
    import_officebench(_officebench(tmp_path), out, overlay=OVERLAY)
    assert (target / "keep.txt").read_text() == "keep" and sorted(p.name for p in target.iterdir()) == ["keep.txt"]
    assert not (out / "officebench-1-1-0").is_symlink() and (out / "officebench-1-1-0" / "task.yaml").is_file()


# ---- WorkBench: the snapshot's files copied here, then tampered with --------------------------------
needs_workbench = pytest.mark.skipif(not (WORKBENCH / "data" / "processed").is_dir(),
                                     reason=f"needs the WorkBench snapshot at {WORKBENCH} (or OFFICESIM_WORKBENCH)")


@pytest.fixture
def workbench(tmp_path) -> Path:
    from officesim.tasks.workbench.source import DIRECTORY_FILE, DOMAIN_FILES, QUERY_DIR, TABLE_FILES

    source = tmp_path / "workbench"
    for rel in [*TABLE_FILES.values(), DIRECTORY_FILE, *(f"{QUERY_DIR}/{f}" for f in DOMAIN_FILES.values())]:
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(WORKBENCH / rel, source / rel)
    return source


def _import_workbench(source: Path, out: Path):
    from officesim.tasks.workbench.importer import import_workbench

    return import_workbench(source, out, only=["workbench-email-1"], overlay={})


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@needs_workbench
def test_workbench_a_well_formed_copy_imports(workbench, tmp_path):
    out = tmp_path / "out"
    report = _import_workbench(workbench, out)
    assert report.imported == ["workbench-email-1"]
    assert sorted(p.name for p in out.iterdir()) == ["_office", "workbench-email-1", "workbench-import.json"]
    assert len(list((out / "_office" / "emails").rglob("*.eml"))) > 100


@needs_workbench
@pytest.mark.parametrize("email_id", ["../../../escaped", "/tmp/escaped", "a/b"])
def test_workbench_a_traversal_email_id_is_refused(workbench, tmp_path, email_id):
    emails = workbench / "data" / "processed" / "emails.csv"
    first_id = emails.read_text().splitlines()[1].split(",")[0]
    _edit(emails, f"\n{first_id},", f"\n{email_id},")
    out = tmp_path / "deep" / "er" / "out"
    with pytest.raises(SourceError, match=r"emails\.csv: row 2: field 'email_id'"):
        _import_workbench(workbench, out)
    _nothing_written(out)
    assert not list(tmp_path.rglob("escaped*")) and not Path("/tmp/escaped.eml").exists()


@needs_workbench
def test_workbench_a_table_linked_out_of_the_source_is_refused(workbench, tmp_path):
    table = workbench / "data" / "processed" / "calendar_events.csv"
    outside = tmp_path / "host" / "calendar_events.csv"
    outside.parent.mkdir()
    shutil.move(table, outside)
    table.symlink_to(outside)
    with pytest.raises(SourceError, match="calendar_events.csv: leads outside"):
        _import_workbench(workbench, tmp_path / "out")
    _nothing_written(tmp_path / "out")


@needs_workbench
def test_workbench_a_malformed_answer_is_named(workbench, tmp_path, capsys):
    queries = workbench / "data" / "processed" / "queries_and_answers" / "email_queries_and_answers.csv"
    _edit(queries, "['email.", "['email.(((")
    out = tmp_path / "out"
    code = cli(["import", "workbench", "--source", str(workbench), "--out", str(out), "--task", "workbench-email-1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "email_queries_and_answers.csv: query 1 (line 2): field 'answer'" in err
    _nothing_written(out)


@needs_workbench
def test_workbench_a_row_with_extra_fields_is_named(workbench, tmp_path):
    analytics = workbench / "data" / "processed" / "analytics_data.csv"
    lines = analytics.read_text().splitlines(keepends=True)
    lines[3] = lines[3].rstrip("\n") + ",surplus\n"
    analytics.write_text("".join(lines))
    with pytest.raises(SourceError, match=r"analytics_data\.csv: line 4: more fields than the header"):
        _import_workbench(workbench, tmp_path / "out")
    _nothing_written(tmp_path / "out")


@needs_workbench
def test_workbench_a_file_that_is_not_text_is_named(workbench, tmp_path):
    (workbench / "data" / "processed" / "project_tasks.csv").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SourceError, match=r"project_tasks\.csv: not readable as CSV"):
        _import_workbench(workbench, tmp_path / "out")
    _nothing_written(tmp_path / "out")


@needs_workbench
def test_workbench_a_table_hard_linked_to_a_host_file_is_refused(workbench, tmp_path):
    table = workbench / "data" / "processed" / "calendar_events.csv"
    outside = tmp_path / "host" / "calendar_events.csv"
    outside.parent.mkdir()
    shutil.move(table, outside)
    os.link(outside, table)
    with pytest.raises(SourceError, match=r"calendar_events\.csv: is a hard link \(2 names"):
        _import_workbench(workbench, tmp_path / "out")
    _nothing_written(tmp_path / "out")
