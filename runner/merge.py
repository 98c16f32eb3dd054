"""Merge shard run directories into one, refusing mixtures and reporting gaps and duplicates."""

from __future__ import annotations

from pathlib import Path

from officesim.runner.results import RUN_META, read_json, read_results, record_key, rewrite_clean, write_json


class MergeError(Exception):
    """A merge that would give a wrong picture; the message says what is wrong."""


def merge_runs(dirs: list[Path], out: Path) -> dict:
    """Combine run directories (shards of one evaluation) into ``out``; returns the merged summary."""
    from officesim.runner.run import finalize

    metas = []
    for d in dirs:
        if not (Path(d) / RUN_META).exists():
            raise MergeError(f"{d} is not a run directory (no {RUN_META})")
        metas.append((Path(d), read_json(Path(d) / RUN_META)))
    for key in ("agent", "model", "suite", "mode", "trials"):
        values = {str(m.get(key)) for _, m in metas}
        if len(values) > 1:
            detail = ", ".join(f"{d}: {m.get(key)!r}" for d, m in metas)
            raise MergeError(f"refusing to merge runs with different {key}: {detail}")
    problems = []
    shards = [m.get("shard") for _, m in metas]
    if all(shards) and len({s[1] for s in shards}) > 1:
        problems.append("shards of different splits: " + ", ".join(f"{d}: {m['shard'][0]}/{m['shard'][1]}"
                                                                  for d, m in metas))
    elif all(shards):
        total = shards[0][1]
        seen = sorted(s[0] for s in shards)
        missing = sorted(set(range(total)) - set(seen))
        if missing:
            problems.append(f"missing shard(s) {', '.join(f'{i}/{total}' for i in missing)}")
        dup = sorted({i for i in seen if seen.count(i) > 1})
        if dup:
            problems.append(f"shard(s) given twice: {', '.join(f'{i}/{total}' for i in dup)}")
    records, owner = [], {}
    expected = set()
    trials = int(metas[0][1].get("trials", 1))
    for d, meta in metas:
        # "selection" (every task of the run before sharding) names the tasks of a missing shard too
        expected |= {(t, k) for t in meta.get("selection") or meta.get("task_ids", []) for k in range(1, trials + 1)}
        for rec in read_results(d):
            key = record_key(rec)
            if key in owner:
                problems.append(f"duplicated result for {key[0]} trial {key[1]} (in {owner[key]} and {d})")
                continue
            owner[key] = d
            records.append(rec)
    missing_tasks = sorted(expected - set(owner))
    if missing_tasks:
        shown = ", ".join(f"{t}#{k}" for t, k in missing_tasks[:10])
        problems.append(f"{len(missing_tasks)} result(s) missing: {shown}{' ...' if len(missing_tasks) > 10 else ''}")
    if problems:
        raise MergeError("cannot merge: " + "; ".join(problems))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    first = metas[0][1]
    merged_meta = {**first, "shard": None, "task_ids": sorted({k[0] for k in owner}),
                   "started": min((m["started"] for _, m in metas if m.get("started")), default=None),
                   "finished": max((m["finished"] for _, m in metas if m.get("finished")), default=None),
                   "elapsed_s": None,  # shards may run side by side: summary.json takes started to finished
                   "merged_from": [str(d) for d, _ in metas]}
    write_json(out / RUN_META, merged_meta)
    rewrite_clean(out, sorted(records, key=record_key))
    return finalize(out)
