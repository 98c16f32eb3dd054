"""The run directory on disk: results.jsonl written record by record, run.json, summary.json.

Each record is one ``EpisodeRecord`` on one line, flushed and fsynced as soon as its episode ends,
so a run killed with ``kill -9`` loses at most the episodes in flight; a torn last line is ignored
on reading.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Iterable

from officesim.evaluators.record import EpisodeRecord

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
RUN_META = "run.json"
REPORT = "report.html"


def record_key(record: EpisodeRecord) -> tuple[str, int]:
    return record.task_id, record.trial


def read_results(run_dir: Path) -> list[EpisodeRecord]:
    """Every complete record of a run directory (a torn, garbled or malformed line is skipped)."""
    path = Path(run_dir) / RESULTS
    if not path.exists():
        return []
    records = []
    with path.open("rb") as fh:
        for raw in fh:
            try:
                records.append(EpisodeRecord.model_validate_json(raw))
            except ValueError:  # pydantic's ValidationError is one
                continue
    return records


def rewrite_clean(run_dir: Path, records: Iterable[EpisodeRecord]) -> None:
    """Rewrite results.jsonl with exactly these records (drops a torn tail before resuming)."""
    path = Path(run_dir) / RESULTS
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(rec.to_line() + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class ResultsWriter:
    """Appends records to results.jsonl from many worker threads, one whole line at a time."""

    def __init__(self, run_dir: Path):
        self.path = Path(run_dir) / RESULTS
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._fh = self.path.open("a", encoding="utf-8")

    def write(self, record: EpisodeRecord) -> None:
        line = record.to_line() + "\n"
        with self._lock:
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        with self._lock:
            self._fh.close()


def write_json(path: Path, data: dict) -> None:
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def read_json(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))
