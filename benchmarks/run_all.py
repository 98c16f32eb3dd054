"""Run every benchmark (``make bench``) and print the figures against the targets.

Memory is measured first, on a fresh server; the latency, session, conversion, concurrency and
response-size benchmarks share that one private server; the suite benchmark starts its own servers, the Ray engine
benchmark its own Ray cluster (skipped without Ray). Results go
to benchmarks/results/*.json (summary.json holds the comparison with the targets). The machine is
often shared: the load average is printed with every table and stored with every result, and
besides wall-clock latencies the server's CPU time per call is reported, which load does not inflate
much. OFFICESIM_BENCH_WORKERS="2" runs the suite at those worker counts only (default "1 2 4").

Opt-in, for its length: OFFICESIM_BENCH_HARD_MEMORY=N plays the oracle on the first N hard tasks against one
server and reads its memory after every few (``hard_memory.py``; "all" or 129 for the whole split: ~25-50 min on
2 cores, more when the machine's store of reference states is built first).
"""

from __future__ import annotations

import os
import sys
import time

import actions
import concurrency
import conversions
import first_finish
import hard_memory
import hard_sessions
import hostile
import memory
import observations
import ocr
import ray_engine
import response_bytes
import serve_start
import sessions
import suite
import workbench
from common import machine, print_table, private_server, write_result


def main() -> int:
    started = time.perf_counter()
    info = machine()
    print(f"machine: {info['nproc']} CPUs, {info['cpu']}, Python {info['python']}; load average {info['loadavg']}")
    start = serve_start.run()  # first: the machine is quietest before the other benchmarks
    with private_server() as bench:
        mem = memory.run(bench)
        act = actions.run(bench)
        ses = sessions.run(bench)
        conv = conversions.run(bench)
        conc = concurrency.run(bench)
        size = response_bytes.run(bench)
    hos = hostile.run()
    obs = observations.run()
    many = hard_sessions.run()
    fin = first_finish.run()
    sui = suite.run()
    wbn = workbench.run()  # None without the WorkBench snapshot
    ocr_result = ocr.run()  # the OfficeBench part is skipped without its snapshot
    ray_result = ray_engine.run()  # None without Ray (the ray extra)
    hard_tasks = os.environ.get("OFFICESIM_BENCH_HARD_MEMORY", "").strip()  # opt-in: a long run (see above)
    hmem = hard_memory.run(tasks=None if hard_tasks == "all" else int(hard_tasks)) if hard_tasks else None

    a = act["actions"]
    cheap = {k: a[k]["p50_ms"] for k in ("system.switch_app", "calendar.list_events", "email.list_emails")}
    by_workers = {r["workers"]: r for r in sui["runs"]}
    suite_2 = by_workers.get(2) or sui["runs"][-1]
    checks = [
        ("officesim serve answers /health: 2 processes p50 / 1 process p50", "<= 3 s",
         f"{start['processes_2']['p50_s']} / {start['processes_1']['p50_s']} s (max {start['processes_2']['max_s']})",
         start["processes_2"]["p50_s"] <= serve_start.TARGET_S),
        ("hard task finish: first in a new process p50 / warm p50", "<= 2 s / <= 0.5 s",
         f"{fin['first_p50_s']} / {fin['warm_p50_s']} s", fin["first_p50_s"] <= 2.0 and fin["warm_p50_s"] <= 0.5),
        ("32 sessions reading lived-in offices once a second: reads/s, a 33rd client's p95", "32 / <= 1 s",
         f"{many['reads_per_s']} / {many['probe_p95_s']} s", many["reads_per_s"] >= 30 and many["probe_p95_s"] <= 1.0),
        ("hard gold run: median / largest observation", "<= 4 KB / <= 32 KB",
         f"{obs['median_bytes'] / 1024:.1f} KB / {obs['max_bytes'] / 1024:.1f} KB",
         obs["median_bytes"] <= observations.MEDIAN_TARGET and obs["max_bytes"] <= observations.MAX_TARGET),
        ("cheap action p50 (switch_app, list_events, list_emails)", "<= 3 ms", f"{max(cheap.values()):.2f} ms (worst)",
         max(cheap.values()) <= 3),
        ("excel read_file p50", "<= 5 ms", f"{a['excel.read_file']['p50_ms']:.2f} ms", a["excel.read_file"]["p50_ms"] <= 5),
        ("process-per-action baseline / excel read_file p50", ">= 40x", f"{act['speedup_vs_baseline']}x",
         (act["speedup_vs_baseline"] or 0) >= 40),
        ("session create p50", "<= 20 ms", f"{ses['create']['p50_ms']:.2f} ms", ses["create"]["p50_ms"] <= 20),
        (f"whole suite, {suite_2['workers']} workers", "< 60 s", f"{suite_2['wall_s']:.1f} s ({suite_2['passed']}/{suite_2['tasks']} passed)",
         suite_2["wall_s"] < 60),
        ("conversions p50 (worst of 4)", "<= 300 ms", f"{max(v['p50_ms'] for v in conv.values()):.1f} ms",
         max(v["p50_ms"] for v in conv.values()) <= 300),
        (f"{conc['sessions']} concurrent sessions", "no cross-talk",
         f"{conc['cross_talk']} problems, {conc['actions_per_s']} actions/s", conc["cross_talk"] == 0),
        (f"{conc['sessions']} sessions / one client throughput", ">= 1.8x",
         f"{conc['speedup_vs_one_client']}x ({conc['actions_per_s']} vs {conc['one_client']['actions_per_s']} actions/s)",
         conc["speedup_vs_one_client"] >= 1.8),
        (f"{conc['sessions']} sessions / one client, wrk", ">= 1.6x",
         "wrk not installed" if conc.get("wrk") is None else
         f"{conc['wrk']['speedup_vs_one_client']}x ({conc['wrk']['many_connections']['requests_per_s']} vs "
         f"{conc['wrk']['one_connection']['requests_per_s']} requests/s, "
         f"{conc['wrk']['many_connections']['failed']} failed)",
         conc.get("wrk") is not None and conc["wrk"]["speedup_vs_one_client"] >= 1.6
         and conc["wrk"]["many_connections"]["failed"] == 0),
        ("hostile files: slowest answer", "<= 30 s", f"{hos['slowest_answer_s']:.1f} s", hos["slowest_answer_s"] <= 30),
        ("hostile files: server + workers memory peak", "< 1024 MiB", f"{hos['peak_rss_mb']:.0f} MiB",
         hos["peak_rss_mb"] < 1024),
        ("hostile use of code mode, sandbox, router, MCP, a crash", "0 failures",
         f"{hos['failures']} of {len(hos['surfaces'])} cases", hos["failures"] == 0),
        ("action response bytes, switch_app mode (median)", "<= 2048", f"{size['switch_app_median_bytes']:.0f} B",
         size["switch_app_median_bytes"] <= size["target_bytes"]),
        ("server RSS idle / 64 live sessions", "(reported)", f"{mem['idle_rss_mb']} / {mem['live_rss_mb']} MiB", True),
    ]
    ocr_ob, ocr_su = ocr_result["officebench"], ocr_result["suite"]
    if ocr_ob is not None:
        checks.append(("OCR: OfficeBench values the imported tasks check, read", "all",
                       f"{ocr_ob['after']['checked_values_read']} of {ocr_ob['after']['checked_values']} "
                       f"(before: {ocr_ob['before']['checked_values_read']})",
                       ocr_ob['after']['checked_values_read'] == ocr_ob['after']['checked_values']))
        checks.append(("OCR: OfficeBench image lines read verbatim (before -> after)", "(reported)",
                       f"{ocr_ob['before']['values_read']} -> {ocr_ob['after']['values_read']} of {ocr_ob['after']['values']}; "
                       f"character accuracy {ocr_ob['before']['char_accuracy']:.3f} -> {ocr_ob['after']['char_accuracy']:.3f}", True))
    checks.append(("OCR: suite images character accuracy (before -> after)", "(reported)",
                   f"{ocr_su['before']['char_accuracy']} -> {ocr_su['after']['char_accuracy']} ({ocr_su['after']['images']} images)", True))
    if wbn is not None:
        checks.append(("WorkBench session create p50 (505 files, linked)", "(reported)",
                       f"{wbn['create']['p50_ms']:.1f} ms (p95 {wbn['create']['p95_ms']:.1f})", True))
    if hmem is not None:
        tree_slope = hmem["slope_second_half_mb_per_task"]["tree"]
        checks.append((f"server + workers memory over {hmem['done']} hard tasks: MiB per task, second half", "flat (<= 1)",
                       f"{tree_slope} (servers {hmem['slope_second_half_mb_per_task']['servers']}); "
                       f"{hmem['samples'][-1]['tree_rss_mb']:.0f} MiB at the end",
                       tree_slope is not None and tree_slope <= hard_memory.SLOPE_TARGET_MB))
    if ray_result is not None:
        by_nodes = {r["nodes"]: r["episodes_per_s"] for r in ray_result["ray"]}
        checks.append(("Ray engine: episodes/s at 1 / 2 / 3 nodes; overhead per episode", "(reported)",
                       f"{' / '.join(str(by_nodes[n]) for n in sorted(by_nodes))}; "
                       f"{ray_result['overhead_per_episode_ms']} ms", True))
    print_table("Targets", ["measure", "target", "measured", "met"], [[m, t, v, "yes" if ok else "NO"] for m, t, v, ok in checks])
    total = time.perf_counter() - started
    print(f"\nall benchmarks: {total:.0f} s; results in benchmarks/results/")
    write_result("summary", {"targets": [{"measure": m, "target": t, "measured": v, "met": ok} for m, t, v, ok in checks],
                             "machine_at_start": info, "duration_s": round(total, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
