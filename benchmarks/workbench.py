"""WorkBench tasks (tasks/workbench/): session create p50/p95 over HTTP for an office of 500 emails, 300
events and three tables (1,000 analytics rows), and the latency of typical WorkBench tools on it.

Needs the WorkBench snapshot at ../shared/benchmarks/workbench (or OFFICESIM_WORKBENCH); skipped without it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from common import ROOT, cpu_seconds, print_table, summary_ms, timed, write_result

from officesim.runner.localserver import LocalServer
from officesim.server.client import OfficeClient

SNAPSHOT = Path(os.environ.get("OFFICESIM_WORKBENCH") or ROOT.parent / "shared" / "benchmarks" / "workbench")
TASKS = ["workbench-calendar-1", "workbench-email-21", "workbench-analytics-1"]
ROUNDS = 60
ACTIONS = [
    ("email", "search_emails", {"query": "update"}),
    ("calendar", "search_events", {"query": "sync", "time_min": "2023-11-01 00:00:00"}),
    ("analytics", "get_average_session_duration", {"time_min": "2023-11-01", "time_max": "2023-11-29"}),
    ("customer_relationship_manager", "search_customers", {"status": "Lead"}),
    ("calendar", "create_event", {"event_name": "x", "participant_email": "raj.patel@atlas.com",
                                  "event_start": "2023-12-01 13:00:00", "duration": "30"}),
    ("project_management", "update_task", {"task_id": "00000149", "field": "list_name", "new_value": "Completed"}),
]


def run(rounds: int = ROUNDS) -> dict | None:
    if not (SNAPSHOT / "data" / "processed").is_dir():
        print(f"WorkBench benchmark skipped: no snapshot at {SNAPSHOT}")
        return None
    from officesim.tasks.workbench.importer import import_workbench

    with tempfile.TemporaryDirectory(prefix="bench-workbench-") as tmp:
        import_workbench(SNAPSHOT, Path(tmp), only=TASKS)
        with LocalServer([Path(tmp)], env={"OFFICESIM_MAX_SESSIONS": "512"}, include_suite=False) as server:
            with OfficeClient(server.url, token=server.token) as client:
                creates, deletes, cpu = [], [], 0.0
                for i in range(rounds + 5):
                    box: dict = {}
                    c0 = cpu_seconds(server.proc.pid)
                    t_create = timed(lambda: box.update(client.create_session(TASKS[i % len(TASKS)], mode="all_operations")))
                    c1 = cpu_seconds(server.proc.pid)
                    t_delete = timed(lambda: client.delete(box["session_id"]))
                    if i >= 5:
                        creates.append(t_create)
                        deletes.append(t_delete)
                        cpu += c1 - c0
                times: dict[str, list[float]] = {f"{a}.{b}": [] for a, b, _ in ACTIONS}
                for _ in range(max(3, rounds // 6)):
                    sid = client.create_session(TASKS[0], mode="all_operations")["session_id"]
                    for app, action, args in ACTIONS:
                        times[f"{app}.{action}"].append(timed(lambda: client.act(sid, app, action, args)))
                    client.delete(sid)
    result = {"create": {**summary_ms(creates), "server_cpu_ms": round(cpu * 1000 / rounds, 2)},
              "delete": summary_ms(deletes),
              "actions": {k: summary_ms(v[1:] or v) for k, v in times.items()}}
    print_table("WorkBench sessions over HTTP (ms; 500 .eml, 300 events, 3 xlsx tables)", ["call", "n", "p50", "p95", "server CPU/call"],
                [[k, v["n"], v["p50_ms"], v["p95_ms"], v.get("server_cpu_ms", "")] for k, v in
                 [("session create", result["create"]), ("session delete", result["delete"]), *result["actions"].items()]])
    write_result("workbench", result)
    return result


if __name__ == "__main__":
    run()
