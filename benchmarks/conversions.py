"""Conversion latency over HTTP, p50/p95: docx->pdf, xlsx->pdf, pdf->docx, pdf->image.

Each conversion is an action of an all_operations session on the bench-office task; the four run
round-robin into alternating output names, so no two consecutive actions are identical.
"""

from __future__ import annotations

from common import BENCH_TASK, Bench, cpu_seconds, print_table, server_or_new, summary_ms, timed, write_result

ROUNDS = 30

CASES = [
    ("docx -> pdf", "word", "convert_to_pdf", lambda i: {"word_file_path": "data/notes.docx", "pdf_file_path": f"out/notes{i % 2}.pdf"}),
    ("xlsx -> pdf", "excel", "convert_to_pdf", lambda i: {"excel_file_path": "data/small.xlsx", "pdf_file_path": f"out/small{i % 2}.pdf"}),
    ("pdf -> docx", "pdf", "convert_to_word", lambda i: {"pdf_file_path": "data/report.pdf", "word_file_path": f"out/report{i % 2}.docx"}),
    ("pdf -> image", "pdf", "convert_to_image", lambda i: {"pdf_file_path": "data/report.pdf", "image_file_path": f"out/report{i % 2}.png"}),
]


def run(bench: Bench | None = None, rounds: int = ROUNDS) -> dict:
    with server_or_new(bench) as b:
        client = b.client
        sid = client.create_session(BENCH_TASK, mode="all_operations", max_steps=10_000)["session_id"]
        times = {name: [] for name, *_ in CASES}
        cpu = {name: 0.0 for name, *_ in CASES}
        for i in range(rounds + 2):
            for name, app, action, args in CASES:
                a = args(i)

                def call() -> None:
                    resp = client.act(sid, app, action, a)
                    if not resp["ok"]:
                        raise RuntimeError(f"{name} failed: {resp['observation']}")

                c0 = cpu_seconds(b.pid)
                elapsed = timed(call)
                if i >= 2:
                    times[name].append(elapsed)
                    cpu[name] += cpu_seconds(b.pid) - c0
        client.delete(sid)
    result = {name: {**summary_ms(t), "server_cpu_ms": round(cpu[name] * 1000 / rounds, 2)} for name, t in times.items()}
    print_table("Conversions over HTTP (ms)", ["conversion", "n", "p50", "p95", "server CPU/call"],
                [[k, v["n"], v["p50_ms"], v["p95_ms"], v["server_cpu_ms"]] for k, v in result.items()])
    write_result("conversions", {"conversions": result})
    return result


if __name__ == "__main__":
    run()
