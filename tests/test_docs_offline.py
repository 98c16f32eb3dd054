"""/docs and /redoc render in a real headless browser with every host but the server unreachable:
their Swagger UI and ReDoc assets come from the server itself, not from a CDN."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from officesim.runner.localserver import free_port

REPO = Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
BROWSER = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)

pytestmark = pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on this machine "
                                                        "(make browser installs the chromium package)")


@pytest.fixture(scope="module")
def server_url():
    """A server without a token (a browser sends none), on the example tasks only."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "OFFICESIM_TOKEN"}
    proc = subprocess.Popen([sys.executable, "-m", "officesim.runner.cli", "serve", "--port", str(port),
                             "--log-level", "warning", "--no-suite", "--tasks", str(REPO / "tasks" / "examples")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                pytest.fail("the server exited at start")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def render(url: str, tmp_path: Path) -> str:
    """The DOM after scripts ran, with name resolution failing for every host but 127.0.0.1."""
    cmd = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
           "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
           "--virtual-time-budget=20000", "--dump-dom", url]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_docs_pages_reference_no_outside_host(server_url):
    for page in ("/docs", "/redoc"):
        html = httpx.get(server_url + page).text
        assert "cdn." not in html and "https://" not in html, f"{page} loads something from outside: {html}"


def test_swagger_ui_renders_the_operations_offline(server_url, tmp_path):
    dom = render(f"{server_url}/docs", tmp_path)
    assert 'class="swagger-ui' in dom
    for path in ("/health", "/tasks", "/sessions/{session_id}/actions"):
        assert f'data-path="{path}"' in dom, f"Swagger UI did not render {path}"
    # the description tells MCP clients where to connect; the evaluation is a schema of its own
    assert "<code>/mcp</code>" in dom
    assert '__title">Evaluation</div>' in dom, "Swagger UI shows no Evaluation schema"


def test_redoc_renders_the_operations_offline(server_url, tmp_path):
    dom = render(f"{server_url}/redoc", tmp_path)
    assert "/sessions/{session_id}/actions" in dom
    assert "/sessions/{session_id}/finish" in dom
