"""Server resident memory: idle, with 64 live sessions, after deleting them; the server's own processes
(the router and one server process per core, as ``officesim serve`` runs by default), then with workers.

Run first on a fresh server so "idle" means: tasks loaded, no session yet. Each of the 64 sessions
has read a sheet, a document, a calendar and a mailbox, so the file libraries are in use.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from common import BENCH_TASK, BENCH_USER, Bench, print_table, server_or_new, servers_rss_mb, tree_rss_mb, write_result

SESSIONS = 64


def _open_session(client) -> str:
    sid = client.create_session(BENCH_TASK, mode="all_operations")["session_id"]
    client.act(sid, "excel", "read_file", {"file_path": "data/small.xlsx"})
    client.act(sid, "word", "read_file", {"file_path": "data/notes.docx"})
    client.act(sid, "calendar", "list_events", {"username": BENCH_USER})
    client.act(sid, "email", "list_emails", {"username": BENCH_USER})
    return sid


def run(bench: Bench | None = None, sessions: int = SESSIONS) -> dict:
    with server_or_new(bench) as b:
        idle = servers_rss_mb(b.pid)
        idle_tree = tree_rss_mb(b.pid)
        with ThreadPoolExecutor(max_workers=16) as pool:
            ids = list(pool.map(lambda _: _open_session(b.client), range(sessions)))
            live = servers_rss_mb(b.pid)
            live_tree = tree_rss_mb(b.pid)
            list(pool.map(b.client.delete, ids))
        after = servers_rss_mb(b.pid)
        after_tree = tree_rss_mb(b.pid)
    result = {"idle_rss_mb": idle, "live_sessions": sessions, "live_rss_mb": live,
              "per_session_mb": round((live - idle) / sessions, 2), "after_delete_rss_mb": after,
              "with_workers": {"idle_rss_mb": idle_tree, "live_rss_mb": live_tree, "after_delete_rss_mb": after_tree}}
    print_table("Server memory (RSS, MiB)", ["", "idle", f"{sessions} live sessions", "per session", "after deleting them"],
                [["server processes (and router)", idle, live, result["per_session_mb"], after],
                 ["with its workers", idle_tree, live_tree, round((live_tree - idle_tree) / sessions, 2), after_tree]])
    write_result("memory", result)
    return result


if __name__ == "__main__":
    run()
