"""Hostile files against one server: how long each takes to be answered, and the memory ceiling.

The battery of tests/test_hostile.py (decompression bombs in docx, xlsx, zip and a mail attachment, a
cyclic and a huge PDF, a million-row sheet, a huge image, deeply nested XML) is played action by
action on a private server with the hostile task, then the session is finished (grading parses the
whole office of bombs). The resident memory of the server and all its worker processes is sampled
every 50 ms throughout; the targets are an answer within 30 s for any hostile file and the server
under 1 GiB.

Then the surfaces around the operations are attacked (benchmarks/hostile_surfaces.py: code mode, the
sandbox, the router, a crashed server process, MCP); the result counts the cases whose limit did not
hold (``failures``, the target 0).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import hostile_surfaces
from common import ROOT, print_table, tree_rss_mb, write_result

sys.path.insert(0, str(ROOT / "tests"))
from _hostile import HOSTILE_ACTIONS, hostile_task  # noqa: E402

from officesim.runner.localserver import LocalServer  # noqa: E402
from officesim.server.client import OfficeClient  # noqa: E402

TASK = "hostile-office-001"


def run() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tasks = hostile_task(Path(tmp))
        with LocalServer([tasks], include_suite=False, processes=0) as server, OfficeClient(server.url, token=server.token) as client:
            peak = {"mb": 0.0}
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    peak["mb"] = max(peak["mb"], tree_rss_mb(server.proc.pid))
                    time.sleep(0.05)

            sampler = threading.Thread(target=sample, daemon=True)
            idle = tree_rss_mb(server.proc.pid)
            sampler.start()
            rows = []
            sid = client.create_session(TASK, mode="all_operations", max_steps=1000)["session_id"]
            for app, action, args, _says in HOSTILE_ACTIONS:
                t0 = time.perf_counter()
                reply = client.act(sid, app, action, args)
                took = time.perf_counter() - t0
                code = (reply.get("error") or {}).get("code") or "ok"
                rows.append({"action": f"{app}.{action} {next(iter(args.values()))}", "seconds": round(took, 2), "answer": code})
            t0 = time.perf_counter()
            done = client.finish(sid)
            rows.append({"action": "finish (grading parses the whole office)", "seconds": round(time.perf_counter() - t0, 2),
                         "answer": "evaluated" if done.get("evaluation") else "no evaluation"})
            client.delete(sid)
            stop.set()
            sampler.join()
    worst = max(r["seconds"] for r in rows)
    result = {"actions": rows, "slowest_answer_s": worst, "idle_rss_mb": idle, "peak_rss_mb": peak["mb"]}
    print_table("Hostile files: time to answer", ["action", "seconds", "answer"],
                [[r["action"], r["seconds"], r["answer"]] for r in rows])
    print(f"  server with its workers: {idle} MiB idle, {peak['mb']} MiB at the peak of the battery")
    surfaces = hostile_surfaces.run()
    result["surfaces"] = surfaces["cases"]
    result["failures"] = surfaces["failures"]
    write_result("hostile", result)
    return result


if __name__ == "__main__":
    run()
