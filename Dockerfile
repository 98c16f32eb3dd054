# officesim: the simulated office as an HTTP service, with OCR and the shell sandbox inside.
#
#   docker build -t officesim .                      # from a registry (python slim base)
#   docker/build-local.sh                            # machines without registry access
#   docker compose up server / docker compose run eval
#
# The base is a build argument: any Debian bookworm image with python3 (>= 3.10) and venv works.
ARG BASE_IMAGE=python:3.11-slim-bookworm
FROM ${BASE_IMAGE}

ENV DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/officesim \
    PATH=/opt/officesim/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# System dependencies: tesseract (OCR app; pulls the English data), bubblewrap (shell sandbox),
# ImageMagick (the office shell's image tool: convert, identify, mogrify),
# one font family (PDF conversions). No office suite.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tesseract-ocr bubblewrap imagemagick fonts-dejavu-core \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/* /usr/share/doc/* /usr/share/man/* \
 && useradd --uid 10001 --user-group --create-home --shell /usr/sbin/nologin officesim

# Python dependencies first, from pyproject.toml alone, so that a source change does not
# download them again (every package pyproject.toml lists needs a folder here). EXTRAS names
# optional extras to install too: --build-arg EXTRAS=ray gives the image of `eval --engine ray`
# (docs/ray.md).
ARG EXTRAS=""
COPY pyproject.toml /src/pyproject.toml
COPY build_backend /src/build_backend
RUN python3 -m venv "$VIRTUAL_ENV" \
 && cd /src \
 && for p in apps testbed testbed/worlds evaluators tasks tasks/examples tasks/families tasks/hard tasks/hard_scenarios \
      tasks/officebench tasks/officebench/overlay tasks/suite tasks/workbench server server/routes runner runner/mutants \
      runner/templates inspect_ai_task; do mkdir -p "$p" && touch "$p/__init__.py"; done \
 && touch README.md \
 && pip install --no-cache-dir "/src${EXTRAS:+[$EXTRAS]}" \
 && pip uninstall -y officesim setuptools \
 && rm -rf /src

COPY . /src
RUN [ -f /src/README.md ] || touch /src/README.md; \
    pip install --no-cache-dir --no-deps /src \
 && install -m 0755 /src/docker/bwrap-in-container /usr/local/bin/bwrap \
 && install -m 0755 /src/docker/run-as-owner /usr/local/bin/officesim-run-as-owner \
 && mkdir -p /usr/local/lib/officesim \
 && python3 /src/docker/no_userns_filter.py /usr/local/lib/officesim/no-userns.bpf \
 && rm -rf /src \
 && officesim tasks list >/dev/null

USER officesim
WORKDIR /home/officesim
ENV OFFICESIM_SESSIONS_DIR=/tmp/officesim-sessions
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD python3 -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('OFFICESIM_PORT', '8000'), timeout=4)" || exit 1

ENTRYPOINT ["officesim"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
