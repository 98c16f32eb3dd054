"""`eval --server docker[:IMAGE]` (runner/dockerserver.py) against a fake Docker client: the container's
security settings, the image pulled when absent, and the container removed however the block ends
(an error in the run, a container that exits at start, SIGTERM); and the one-line error, exit 2,
when no Docker engine answers. The real engine is exercised by .ci/docker-stage.sh."""

from __future__ import annotations

import json
import os
import signal
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from officesim.runner import dockerserver
from officesim.runner.cli import main as cli_main
from officesim.runner.dockerserver import (DockerServer, DockerServerError, DockerUnavailable, connect,
                                           docker_image)

EXAMPLES = Path(__file__).resolve().parent.parent / "tasks" / "examples"


class FakeErrors:
    class ImageNotFound(Exception):
        pass

    class APIError(Exception):
        pass


class FakeSocket:
    def __init__(self):
        self.closed = False

    def close(self):
        self.closed = True


class FakeContainer:
    def __init__(self, port: int, exits: bool = False):
        self.port = port
        self.exits = exits
        self.status = "created"
        self.removed = False
        self.attrs: dict = {}
        self.stdin = None

    def attach_socket(self, params):
        assert params == {"stdin": 1, "stream": 1}
        self.stdin = FakeSocket()
        return self.stdin

    def start(self):
        self.status = "exited" if self.exits else "running"

    def reload(self):
        if self.removed:
            raise FakeErrors.APIError("No such container")
        self.attrs = {"NetworkSettings": {"Ports": {"8000/tcp": [{"HostIp": "127.0.0.1", "HostPort": str(self.port)}]}}}

    def logs(self, tail):
        return b"Traceback (most recent call last):\nRuntimeError: no tasks\n"

    def remove(self, force=False):
        assert force
        self.removed = True


class FakeClient:
    errors = FakeErrors

    def __init__(self, port: int, *, present: bool = True, exits: bool = False, pullable: bool = True):
        self.created: list[tuple[str, dict]] = []
        self.pulled: list[str] = []
        self.container = FakeContainer(port, exits)
        client = self

        class Images:
            def get(self, name):
                if not present and name not in client.pulled:
                    raise FakeErrors.ImageNotFound(name)

            def pull(self, name):
                if not pullable:
                    raise FakeErrors.APIError("pull access denied for nothere, repository does not exist")
                client.pulled.append(name)

        class Containers:
            def create(self, image, **options):
                client.created.append((image, options))
                return client.container

        self.images, self.containers = Images(), Containers()


@pytest.fixture
def health_port():
    """A stand-in for the server in the container: /health answers 200."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/health" else 404)
            self.end_headers()
            self.wfile.write(b'{"status": "ok", "version": "test"}')

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_server_option_names_an_image(monkeypatch):
    monkeypatch.delenv("OFFICESIM_IMAGE", raising=False)
    assert docker_image("docker") == "officesim:latest"
    assert docker_image("docker:") == "officesim:latest"
    assert docker_image("docker:registry.example.com/officesim:1.2") == "registry.example.com/officesim:1.2"
    assert docker_image("http://127.0.0.1:8000") is None and docker_image(None) is None
    assert docker_image("dockerhost:8000") is None
    monkeypatch.setenv("OFFICESIM_IMAGE", "mine:dev")
    assert docker_image("docker") == "mine:dev"


def test_the_container_has_the_documented_settings_and_is_removed_when_the_run_fails(health_port):
    fake = FakeClient(health_port)
    said = []
    with pytest.raises(RuntimeError, match="the agent broke"):
        with DockerServer("officesim:latest", [EXAMPLES / "example-price-sort"], include_suite=False, client=fake,
                          token="secret", timeout=30, progress=said.append) as server:
            assert server.url == f"http://127.0.0.1:{health_port}" and server.token == "secret"
            assert fake.container.status == "running" and not fake.container.removed
            raise RuntimeError("the agent broke")
    assert fake.container.removed and fake.container.stdin.closed
    assert not dockerserver._live
    image, options = fake.created[0]
    assert image == "officesim:latest" and not fake.pulled
    # docs/docker.md and docker-compose.yml's server service
    assert options["cap_drop"] == ["ALL"]
    assert options["security_opt"][0] == "no-new-privileges:true"
    profile = json.loads(options["security_opt"][1].removeprefix("seccomp="))
    assert profile == json.loads((EXAMPLES.parent.parent / "docker" / "seccomp.json").read_text())
    assert options["read_only"] is True and options["tmpfs"] == {"/tmp": "size=2g,mode=1777"}
    assert options["pids_limit"] == 2048 and options["mem_limit"]
    assert options["ports"] == {"8000/tcp": ("127.0.0.1", None)}  # a free port, chosen by Docker, on localhost only
    assert options["environment"]["OFFICESIM_TOKEN"] == "secret"
    assert options["environment"]["OFFICESIM_PARENT_FD"] == "0" and options["stdin_open"] and options["auto_remove"]
    folder = str(EXAMPLES / "example-price-sort")
    assert options["volumes"] == {folder: {"bind": "/tasks/0/example-price-sort", "mode": "ro"}}
    assert options["command"] == ["serve", "--host", "0.0.0.0", "--port", "8000", "--tasks", "/tasks/0/example-price-sort"]
    assert any("ready" in line for line in said)


def test_a_token_is_made_when_none_is_given_and_the_suite_is_kept_with_task_folders(health_port):
    fake = FakeClient(health_port)
    with DockerServer("officesim:latest", [EXAMPLES], include_suite=True, client=fake, timeout=30) as server:
        assert len(server.token) >= 16
    options = fake.created[0][1]
    assert options["environment"]["OFFICESIM_TOKEN"] == server.token
    assert options["command"][-1] == "--with-suite"
    assert fake.container.removed


def test_an_absent_image_is_pulled(health_port):
    fake = FakeClient(health_port, present=False)
    with DockerServer("officesim:latest", client=fake, timeout=30):
        pass
    assert fake.pulled == ["officesim:latest"] and fake.container.removed


def test_an_image_neither_here_nor_pullable_is_a_clear_error(health_port):
    fake = FakeClient(health_port, present=False, pullable=False)
    with pytest.raises(DockerServerError, match="nothere:1 is not present and could not be pulled.*make docker"):
        with DockerServer("nothere:1", client=fake, timeout=30):
            pass
    assert not fake.created


def test_a_container_that_exits_at_start_is_removed_and_its_log_shown():
    fake = FakeClient(1, exits=True)  # nothing listens on port 1
    with pytest.raises(DockerServerError, match="stopped at start \\(status exited\\)") as info:
        with DockerServer("officesim:latest", client=fake, timeout=30):
            pytest.fail("the block must not run")
    assert "RuntimeError: no tasks" in str(info.value)
    assert fake.container.removed


def test_a_container_that_never_answers_is_removed():
    fake = FakeClient(1)
    with pytest.raises(DockerServerError, match="did not become healthy within 1 s"):
        with DockerServer("officesim:latest", client=fake, timeout=1):
            pass
    assert fake.container.removed


def test_sigterm_removes_the_container_and_ends_the_run(health_port):
    fake = FakeClient(health_port)
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as info:
        with DockerServer("officesim:latest", client=fake, timeout=30):
            os.kill(os.getpid(), signal.SIGTERM)  # its handler runs in this thread before the next line
            pytest.fail("SIGTERM must end the block")
    assert info.value.code == 128 + signal.SIGTERM
    assert fake.container.removed
    assert signal.getsignal(signal.SIGTERM) == before


def test_no_engine_is_one_clear_line(monkeypatch):
    class NoEngine:
        @staticmethod
        def from_env(timeout):
            raise ConnectionError("Error while fetching server API version: ('Connection aborted.', "
                                  "FileNotFoundError(2, 'No such file or directory'))")

    monkeypatch.delenv("DOCKER_HOST", raising=False)
    with pytest.raises(DockerUnavailable) as info:
        connect(NoEngine)
    message = str(info.value)
    assert "\n" not in message and "no Docker engine answers at the local socket" in message
    assert message.endswith("start Docker, set DOCKER_HOST, or pass --server URL")


def test_eval_without_an_engine_exits_2_with_that_line(monkeypatch, tmp_path, capsys):
    pytest.importorskip("docker")
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")  # the real SDK, and nothing there
    code = cli_main(["eval", "--server", "docker:officesim:latest", "--tasks", str(EXAMPLES), "--task",
                     "example-price-sort", "--out", str(tmp_path / "run"), "--progress", "off"])
    err = capsys.readouterr().err
    assert code == 2
    assert "error: --server docker: no Docker engine answers at unix://" in " ".join(err.split())
    assert not (tmp_path / "run" / "results.jsonl").exists()


def test_serve_docker_publishes_the_asked_port_and_removes_the_container(monkeypatch, health_port, capsys):
    fake = FakeClient(health_port)
    monkeypatch.setattr(dockerserver, "connect", lambda: fake)
    monkeypatch.setenv("OFFICESIM_TOKEN", "shared")
    threading.Timer(1.5, lambda: setattr(fake.container, "status", "exited")).start()  # the server dies
    assert cli_main(["serve", "--docker", "--port", "8123", "--tasks", str(EXAMPLES)]) == 1
    err = capsys.readouterr().err
    assert f"officesim serving in Docker (officesim:latest) on http://127.0.0.1:{health_port}; token: shared" in err
    options = fake.created[0][1]
    assert options["ports"] == {"8000/tcp": ("127.0.0.1", 8123)} and options["environment"]["OFFICESIM_TOKEN"] == "shared"
    assert options["command"][-2:] == ["--tasks", "/tasks/0/examples"]
    assert fake.container.removed
