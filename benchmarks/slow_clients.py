"""Slow clients that reconnect at once, and one other client: how many of the other's requests are served.

``SLOW`` connections each send the start of a request head, then a byte a second, and open a new
connection at once whenever theirs is closed or answered (a 408 at the head timeout, a 503 at the
connection cap). Meanwhile another client asks ``GET /health`` every 0.5 s for ``WINDOW`` seconds.
docs/security.md ("Slow clients") quotes the results.

    python benchmarks/slow_clients.py --processes 2 --slow 1100            # the router, its default cap
    OFFICESIM_MAX_CONNECTIONS=10000 python benchmarks/slow_clients.py --processes 2 --slow 5000
    python benchmarks/slow_clients.py --processes 1 --slow 1100 --server-files 1024   # uvicorn alone
    python benchmarks/slow_clients.py --processes 1 --slow 5000 --front nginx        # nginx in front

With ``--front nginx`` (nginx on the PATH) the clients reach the server through nginx configured as
docs/security.md recommends, and the slow clients come from 127.0.0.2, the other client from 127.0.0.1,
as two hosts would.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from officesim.runner.localserver import LocalServer  # noqa: E402
from tests._api_tasks import BUDGET, QUESTION, write_tasks  # noqa: E402

NGINX = """worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log crit;
events {{ worker_connections 16384; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  client_header_timeout 10s;
  client_body_timeout 60s;
  keepalive_timeout 30s;
  limit_conn_zone $binary_remote_addr zone=peraddr:10m;
  limit_req_zone $binary_remote_addr zone=rate:10m rate=200r/s;
  upstream officesim {{ server 127.0.0.1:{port}; keepalive 64; }}
  server {{
    listen 127.0.0.1:{front_port};
    location / {{
      limit_conn peraddr 256;
      limit_req zone=rate burst=400 nodelay;
      proxy_pass http://officesim;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 600s;
      client_max_body_size 64m;
    }}
  }}
}}
"""


async def slow_clients(port: int, count: int, source: str, stop: asyncio.Event, opened: list[int]) -> None:
    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            except OSError:
                await asyncio.sleep(0.05)
                continue
            opened[0] += 1
            try:
                writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\n")
                while not stop.is_set():
                    writer.write(b"X")
                    await writer.drain()
                    try:
                        await asyncio.wait_for(reader.read(1), timeout=1.0)
                        break  # answered or closed: again at once
                    except asyncio.TimeoutError:
                        pass
            except OSError:
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(count)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def measure(args: argparse.Namespace) -> str:
    tasks = write_tasks(Path(tempfile.mkdtemp()), BUDGET, QUESTION)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(args.server_files or hard, hard), hard))  # the server's
    env = {k: v for k, v in os.environ.items() if k == "OFFICESIM_MAX_CONNECTIONS"}
    server = LocalServer([tasks], env=env, include_suite=False, token="", processes=args.processes).start()
    nginx = None
    try:
        server.wait_healthy()
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this process's slow clients
        port, source = server.port, "127.0.0.1"
        if args.front == "nginx":
            work = Path(tempfile.mkdtemp(prefix="nginx-"))
            port, source = free_port(), "127.0.0.2"
            (work / "nginx.conf").write_text(NGINX.format(dir=work, port=server.port, front_port=port))
            nginx = subprocess.Popen(["nginx", "-p", str(work), "-c", str(work / "nginx.conf"), "-g", "daemon off;"])
            await asyncio.sleep(1.0)
        stop, opened = asyncio.Event(), [0]
        attack = asyncio.create_task(slow_clients(port, args.slow, source, stop, opened))
        await asyncio.sleep(3.0)
        served, asked, outcomes = 0, 0, {}
        start = time.monotonic()
        async with httpx.AsyncClient(timeout=5) as client:
            while time.monotonic() - start < args.window:
                asked += 1
                try:
                    resp = await client.get(f"http://127.0.0.1:{port}/health")
                    outcome: object = resp.status_code
                    served += resp.status_code == 200
                except httpx.HTTPError as exc:
                    outcome = type(exc).__name__
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
                await asyncio.sleep(0.5)
        rss = psutil.Process(server.proc.pid).memory_info().rss / 2**20
        stop.set()
        await asyncio.wait_for(attack, 120)
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait()
        server.stop()
    cap = os.environ.get("OFFICESIM_MAX_CONNECTIONS", "default")
    return (f"processes {args.processes}, connection cap {cap}, server open files {args.server_files or hard}, front "
            f"{args.front}, {args.slow} slow clients: the other client was served {served} of {asked} in "
            f"{args.window:g} s {outcomes}; slow connections opened {opened[0]}; officesim's front process "
            f"{rss:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--slow", type=int, default=1100)
    parser.add_argument("--window", type=float, default=40.0)
    parser.add_argument("--server-files", type=int, default=0, help="the server's open-file limit (default: hard)")
    parser.add_argument("--front", choices=["none", "nginx"], default="none")
    print(asyncio.run(measure(parser.parse_args())))


if __name__ == "__main__":
    main()
