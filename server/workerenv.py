"""The environment of a worker process: an allow-list, so no token or secret reaches code an agent drives.

A worker (server/worker.py) runs operations on files the agent made, and starts the shell and code
sandboxes. The server's environment may hold its Bearer token (``OFFICESIM_TOKEN``), an LLM API key
and whatever the host had (cloud credentials, CI tokens). A worker gets only what configures it:

- the names in ``ALLOWED`` (PATH, HOME, locale, time zone, temporary directory, the settings of the
  libraries and tools the apps run: Tesseract, ImageMagick, fontconfig, OpenMP, TLS certificates,
  proxies without credentials) and every ``OFFICESIM_*`` and ``LC_*`` setting,
- minus any name that looks like a secret (``SECRET_WORDS``: ``*TOKEN*``, ``*SECRET*``, ``*KEY*``,
  ``*PASSWORD*``, ...) or belongs to a credential family (``SECRET_PREFIXES``: ``OPENAI_*``, ``AWS_*``, ...).

The llm app needs its endpoint's key in the worker: the names in ``LLM_SETTINGS`` travel beside the
environment and are handed to the app (``officesim.apps.llm.keep_settings``), never put in the
worker's environment, so no subprocess inherits them (the sandboxes start from an empty environment
anyway: bwrap ``--clearenv``; the unsafe backend builds its own).

``install_environment`` (the worker, at start) replaces the environment everywhere a process keeps
it: ``os.environ``, the interpreter's copy ``posix.environ``, the C library's ``environ``, and the
block the process was started with, which ``/proc/<pid>/environ`` shows (a worker is forked from the
forkserver, which was started with the server's environment): the values of every variable not kept
are overwritten there.
"""

from __future__ import annotations

import ctypes
import os
import posix
import re
from collections.abc import Mapping

ALLOWED = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP",
    "OMP_THREAD_LIMIT", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "TQDM_DISABLE",
    "TESSDATA_PREFIX", "MAGICK_HOME", "MAGICK_CONFIGURE_PATH", "MAGICK_TEMPORARY_PATH",
    "FONTCONFIG_FILE", "FONTCONFIG_PATH", "SSL_CERT_FILE", "SSL_CERT_DIR",
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
})
ALLOWED_PREFIXES = ("OFFICESIM_", "LC_")
SECRET_WORDS = re.compile(r"TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|PRIVATE|SIGNATURE",
                          re.IGNORECASE)
SECRET_PREFIXES = ("OPENAI_", "ANTHROPIC_", "AWS_", "AZURE_", "GOOGLE_", "GCP_", "GCLOUD_", "GH_", "GITHUB_",
                   "GITLAB_", "HF_", "HUGGING", "DOCKER_", "NPM_", "PYPI_", "TWINE_", "SSH_", "GPG_", "VAULT_")
# What the llm app reads that must stay out of the environment (apps/llm.py)
LLM_SETTINGS = ("OFFICESIM_LLM_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL")


def is_secret(name: str) -> bool:
    """Whether a variable's name says it holds a credential."""
    return bool(SECRET_WORDS.search(name)) or name.upper().startswith(SECRET_PREFIXES)


def allowed(name: str, value: str) -> bool:
    """Whether a worker's environment may hold this variable."""
    if is_secret(name) or not (name in ALLOWED or name.startswith(ALLOWED_PREFIXES)):
        return False
    return not (name.lower().endswith("_proxy") and "@" in value)  # a proxy URL with user:password@


def worker_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What a worker is started with: the allowed variables of ``environ`` and, apart from them,
    the llm app's settings (``install_environment`` takes those out again)."""
    env = {name: value for name, value in environ.items() if allowed(name, value)}
    env.update({name: environ[name] for name in LLM_SETTINGS if environ.get(name)})
    return env


def install_environment(env: Mapping[str, str]) -> None:
    """Make ``env`` this process's whole environment (the worker, at start): the llm app's settings
    go to the app, the rest replaces ``os.environ``, ``posix.environ`` and the C library's, and the
    values of everything else are wiped from the start-up block (``/proc/self/environ``)."""
    from officesim.apps import llm

    env = dict(env)
    llm.keep_settings({name: env.pop(name) for name in LLM_SETTINGS if name in env})
    env = {name: value for name, value in env.items() if allowed(name, value)}
    os.environ.clear()  # unsetenv of every variable Python knows
    try:
        ctypes.CDLL(None).clearenv()  # and of any it does not (set by a library through setenv)
    except (OSError, AttributeError):
        pass
    posix.environ.clear()  # the interpreter's start-up copy, which os.environ was made from
    posix.environ.update({os.fsencode(k): os.fsencode(v) for k, v in env.items()})
    os.environ.update(env)  # setenv copies: nothing points into the start-up block any more
    wipe_startup_environment(env)


def wipe_startup_environment(kept: Mapping[str, str]) -> int:
    """Overwrite with zeros each ``NAME=value`` of the block this process was started with that is
    not in ``kept``, so ``/proc/<pid>/environ`` shows none of them; returns how many. Call it only
    once the C library's ``environ`` no longer points into the block (``install_environment``)."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[47]), int(fields[48])  # env_start, env_end: fields 50 and 51 of proc(5)
    except (OSError, IndexError, ValueError):
        return 0
    if not 0 < start < end:
        return 0
    block = ctypes.string_at(start, end - start)
    keep = {os.fsencode(f"{k}={v}") for k, v in kept.items()}
    wiped, offset = 0, 0
    for entry in block.split(b"\0"):
        if entry and entry not in keep:
            ctypes.memset(start + offset, 0, len(entry))
            wiped += 1
        offset += len(entry) + 1
    return wiped
