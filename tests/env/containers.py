"""What the container tests share: their marks, podman's settings, and the image, built once.

Without podman they skip (scripts/container/prepare.sh installs it, as root), unless
`WATERCOLOR_CONTAINER_TESTS=required`: `.ci/run` builds the image first (build.sh, podman's
install included; on a fresh machine longer than a test's timeout) and requires them, so a
machine without podman fails them rather than skips. The tests build it too (seconds from
podman's layer cache), holding a file lock: files on two pytest workers build one at a time.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess

import pytest
from env_servers import REPO

SCRIPTS = REPO / "scripts" / "container"
IMAGE = "localhost/watercolor-env:latest"
REQUIRED = os.environ.get("WATERCOLOR_CONTAINER_TESTS") == "required"
# podman reads our settings (runc, no default ulimits) from the file CONTAINERS_CONF names, as
# scripts/container/env.sh sets it for the scripts; the tests' own podman calls need it too.
os.environ.setdefault("CONTAINERS_CONF", str(SCRIPTS / "containers.conf"))


def marks(timeout: float) -> list:
    """A container test file's pytestmark: slow, a browser's, `timeout` s a test (a first build
    on a fresh machine, podman's install included, takes ~10 min on 2 busy cores)."""
    return [
        pytest.mark.slow,
        pytest.mark.browser,
        pytest.mark.timeout(timeout),
        pytest.mark.skipif(
            shutil.which("podman") is None and not REQUIRED,
            reason="podman is not installed: bash scripts/container/prepare.sh (root) installs it",
        ),
    ]


def build_image() -> str:
    """The image, built by build.sh (or found in podman's layer cache), one build at a time."""
    lock = REPO / "outputs" / "container" / "build.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        built = script("build.sh", timeout=3600)
    print(built.strip().splitlines()[-1])  # "built ... in N s: SIZE MB"
    return IMAGE


def script(name: str, timeout: float) -> str:
    """bash scripts/container/`name` from the repository root: its stdout, or the test fails."""
    ran = subprocess.run(
        ["bash", str(SCRIPTS / name)], cwd=REPO, capture_output=True, text=True, timeout=timeout
    )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    return ran.stdout


def shell(line: str, *args: str, timeout: float) -> subprocess.CompletedProcess:
    """bash `line`, with scripts/container/env.sh and start.sh sourced, from the repository
    root; `args` are its $1, $2, ..."""
    command = f"source {SCRIPTS}/env.sh && source {SCRIPTS}/start.sh && {line}"
    return subprocess.run(
        ["bash", "-c", command, "bash", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
