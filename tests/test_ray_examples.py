"""The Ray examples say what they claim: the KubeRay RayJob and the compose ray profile run
``officesim eval --engine ray`` with options the command line accepts, offices only on worker
nodes, results on the driver's volume, and the workers keep the server service's sandbox settings.
Needs no Ray: the files are parsed, not run (tests/test_ray_engine.py runs the engine)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from officesim.runner.cli import build_parser

REPO = Path(__file__).resolve().parent.parent


def eval_args(script: str, values: dict[str, str] | None = None) -> list[str]:
    """The arguments of the `officesim eval` in a shell script, ${VAR:-default} filled in."""
    values = values or {}
    script = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: values.get(m.group(1), m.group(2)), script)
    words = shlex.split(script[script.index("officesim eval"):])
    return words[1:]


def test_kuberay_rayjob_example():
    docs = list(yaml.safe_load_all((REPO / "examples" / "kuberay-rayjob.yaml").read_text()))
    (job,) = [d for d in docs if d["kind"] == "RayJob"]
    (claim,) = [d for d in docs if d["kind"] == "PersistentVolumeClaim"]
    assert job["apiVersion"] == "ray.io/v1"
    spec = job["spec"]
    args = build_parser().parse_args(eval_args(spec["entrypoint"]))
    assert (args.command, args.engine, args.ray_address, args.resume) == ("eval", "ray", "auto", True)
    assert spec["backoffLimit"] >= 1  # a lost driver is retried, and --resume continues its run
    head = spec["rayClusterSpec"]["headGroupSpec"]
    assert head["rayStartParams"]["num-cpus"] == "0"  # no office on the head
    (head_container,) = head["template"]["spec"]["containers"]
    mount = head_container["volumeMounts"][0]["mountPath"]
    assert str(args.out).startswith(mount) and str(args.junit).startswith(mount)
    volume = head["template"]["spec"]["volumes"][0]
    assert volume["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    (workers,) = spec["rayClusterSpec"]["workerGroupSpecs"]
    (worker,) = workers["template"]["spec"]["containers"]
    assert worker["image"] == head_container["image"]
    assert 1 <= workers["minReplicas"] <= workers["replicas"] <= workers["maxReplicas"]


def test_compose_ray_profile():
    services = yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]
    ray = {name: s for name, s in services.items() if "ray" in s.get("profiles", [])}
    assert set(ray) == {"ray-head", "ray-worker-1", "ray-worker-2", "ray-eval"}
    assert not any(s.get("profiles") for name, s in services.items() if name not in ray)  # `up` is unchanged
    for service in ray.values():
        assert service["build"]["args"]["EXTRAS"] == "ray" and service["image"].endswith("officesim:ray}")
    assert "--num-cpus=0" in services["ray-head"]["command"]  # the head hosts no office
    server = services["server"]
    for name in ("ray-worker-1", "ray-worker-2"):
        worker = services[name]
        assert "ray start --address=ray-head:6379 --block" in worker["command"][0]
        assert worker["cap_drop"] == server["cap_drop"] and worker["security_opt"] == server["security_opt"]
    driver = services["ray-eval"]
    script = driver["command"][0]
    assert "--num-cpus=0" in script  # the driver's node hosts no office either
    args = build_parser().parse_args(eval_args(script))
    assert (args.command, args.engine, args.ray_address, str(args.out)) == ("eval", "ray", "auto", "/results")
    assert any(v.endswith(":/results") for v in driver["volumes"])


def test_dockerfile_installs_the_extras_asked_for():
    text = (REPO / "Dockerfile").read_text()
    assert 'ARG EXTRAS=""' in text
    assert 'pip install --no-cache-dir "/src${EXTRAS:+[$EXTRAS]}"' in text
