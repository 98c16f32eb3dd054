#!/usr/bin/env bash
# CI stage: the Docker image and `docker-compose run eval`, end to end.
#
# Installs docker.io, docker-compose and debootstrap when missing, starts dockerd when no engine
# answers, builds the local base and the image (docker/build-local.sh; the base is reused when
# present), evaluates the oracle agent on tasks covering every app through
# `docker-compose run --rm eval`, requires pass_rate 1.0 in summary.json, evaluates one example task
# with `officesim eval --server docker:IMAGE` from the host (the SDK starts and removes the container),
# runs tests/test_docker.py against the image (no skipping here), and tears everything down.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
log() { printf '[docker-stage %3ss] %s\n' "$(( $(date +%s) - start ))" "$*"; }

# word, excel, pdf, calendar, email, ocr, shell, and shell combined with ocr, pdf and excel
TASKS=${DOCKER_STAGE_TASKS:-"contract-company-rename-001 budget-add-total-001 board-minutes-last-month-to-word-001
  client-visit-cancel-001 board-report-send-cc-001 building-notice-water-back-001 contract-scans-rename-001
  scan-file-by-content-001 print-previews-from-pdfs-001 receipt-batch-expenses-001"}

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

dockerd_pid=""
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  $SUDO dockerd >/tmp/officesim-ci-dockerd.log 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { tail -n 20 /tmp/officesim-ci-dockerd.log; log "dockerd did not start"; exit 1; }
fi

export COMPOSE_PROJECT_NAME=officesim-ci
results=$(mktemp -d /tmp/officesim-ci-results.XXXXXX)
export OFFICESIM_RESULTS=$results
teardown() {
  log "tearing down"
  docker-compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$results"
  if [ -n "$dockerd_pid" ]; then
    $SUDO kill "$dockerd_pid" 2>/dev/null || true
    wait "$dockerd_pid" 2>/dev/null || true
  fi
}
trap teardown EXIT

log "building the image"
docker/build-local.sh -q >/tmp/officesim-ci-build.log 2>&1 || { tail -n 40 /tmp/officesim-ci-build.log; exit 1; }
tail -n 1 /tmp/officesim-ci-build.log

args=""
for id in $TASKS; do args="$args --task $id"; done
log "docker-compose run --rm eval ($(echo $TASKS | wc -w) tasks, oracle agent)"
AGENT=oracle EVAL_ARGS="$args" docker-compose run --rm eval

python3 - "$results/summary.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
print(f"summary: {summary['passed']}/{summary['total']} passed, pass_rate {summary['pass_rate']}")
sys.exit(0 if summary["total"] > 0 and summary["pass_rate"] == 1.0 else 1)
PY

PY=.venv/bin/python
[ -x "$PY" ] || PY=python3
IMAGE=${IMAGE:-officesim:latest}

# The agent on the host, the simulator in its image: eval starts the container and removes it.
log "officesim eval --server docker:$IMAGE (an example task mounted into the container, oracle agent)"
host_results=$(mktemp -d /tmp/officesim-ci-host.XXXXXX)
"$PY" -m officesim.runner.cli eval --server "docker:$IMAGE" --agent oracle --tasks tasks/examples \
  --task example-price-sort --out "$host_results/run" --progress lines
"$PY" - "$host_results/run/summary.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
print(f"eval --server docker: {summary['passed']}/{summary['total']} passed")
sys.exit(0 if summary["total"] == 1 and summary["pass_rate"] == 1.0 else 1)
PY
rm -rf "$host_results"
left=$(docker ps -aq --filter label=officesim.eval)
[ -z "$left" ] || { docker ps -a --filter label=officesim.eval; log "eval --server docker left containers behind"; exit 1; }

log "tests/test_docker.py against the image"
OFFICESIM_REQUIRE_DOCKER=1 "$PY" -m pytest -q -p no:cacheprovider tests/test_docker.py

log "docker stage passed"
