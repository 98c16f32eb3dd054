"""Session create and delete latency over HTTP, p50/p95 (the bench-office task: 6 small files)."""

from __future__ import annotations

from common import BENCH_TASK, Bench, cpu_seconds, print_table, server_or_new, summary_ms, timed, write_result

ROUNDS = 100


def run(bench: Bench | None = None, rounds: int = ROUNDS) -> dict:
    with server_or_new(bench) as b:
        client = b.client
        creates, deletes = [], []
        cpu_create = cpu_delete = 0.0
        for i in range(rounds + 5):
            box: dict = {}
            c0 = cpu_seconds(b.pid)
            t_create = timed(lambda: box.update(client.create_session(BENCH_TASK)))
            c1 = cpu_seconds(b.pid)
            t_delete = timed(lambda: client.delete(box["session_id"]))
            c2 = cpu_seconds(b.pid)
            if i >= 5:
                creates.append(t_create)
                deletes.append(t_delete)
                cpu_create += c1 - c0
                cpu_delete += c2 - c1
    result = {"create": {**summary_ms(creates), "server_cpu_ms": round(cpu_create * 1000 / rounds, 2)},
              "delete": {**summary_ms(deletes), "server_cpu_ms": round(cpu_delete * 1000 / rounds, 2)}}
    print_table("Session lifecycle over HTTP (ms)", ["call", "n", "p50", "p95", "p99", "server CPU/call"],
                [[k, v["n"], v["p50_ms"], v["p95_ms"], v["p99_ms"], v["server_cpu_ms"]] for k, v in result.items()])
    write_result("sessions", result)
    return result


if __name__ == "__main__":
    run()
