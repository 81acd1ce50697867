"""OpenEnv's validator at its runtime level on each task's package: it builds the package's
Dockerfile (FROM the environment's image), starts it as its Docker-local provider does (no
network, read-only, no capabilities, an unnamed user, the manifest's CPUs and memory), plays the
oracle's plan over the WebSocket and measures the network from the subject's namespace.

scripts/container/validate.py runs it (`openenv validate envs/<task> --level runtime`'s runner,
with the provider's network helper a local image: none can be pulled here). Every runtime check
openenv 0.10 implements must pass; the rest skip as not implemented. Skipped without podman.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from env_servers import REPO

from watercolor.env.manifest import ORACLE_TOLERANCE

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.timeout(1800),  # a first build on a fresh machine: ~7-10 min on 2 busy cores
    pytest.mark.skipif(
        shutil.which("podman") is None,
        reason="podman is not installed: bash scripts/container/prepare.sh (root) installs it",
    ),
]

SCRIPTS = REPO / "scripts" / "container"
os.environ.setdefault("CONTAINERS_CONF", str(SCRIPTS / "containers.conf"))
# What openenv 0.10 grades at runtime (its graders: openenv.validation.runner).
IMPLEMENTED = {
    "runtime.startup",
    "runtime.reward_well_formed",
    "runtime.observation_schema",
    "runtime.state_contract",
    "runtime.network_policy",
}


STARTUP_DEADLINE = "Subject did not return HTTP 200 from /health before its deadline"


@pytest.fixture(scope="module")
def image() -> None:
    """The environment's image, built (or found in podman's layer cache) by build.sh."""
    built = subprocess.run(
        ["bash", str(SCRIPTS / "build.sh")], cwd=REPO, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]


@pytest.mark.parametrize("task", ["painting", "svg"])
def test_openenv_validate_runtime_passes_every_check_it_implements(image, task, tmp_path):
    report_path = tmp_path / f"{task}.json"
    for _ in range(2):  # a second try only when the provider's fixed 30 s start-up ran out
        ran = subprocess.run(
            [sys.executable, str(SCRIPTS / "validate.py"), task, "--json", str(report_path)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=900,
        )
        print(ran.stdout)
        # the server's start (imports, Chromium) took 22-33 s on 2 cores shared with a study
        if STARTUP_DEADLINE not in ran.stdout:
            break
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    report = json.loads(report_path.read_text())
    results = {r["check_id"]: r for r in report["results"]}
    passed = {check for check, result in results.items() if result["status"] == "pass"}
    assert passed == {"static.manifest"} | IMPLEMENTED, ran.stdout
    for check, result in results.items():
        if check not in IMPLEMENTED and check != "static.manifest":
            assert result["status"] == "skip", result
            assert result["evidence"] == ["grader not implemented in this build"], result
    # The subject as the provider started it, and the oracle's episode: reset, state, its one
    # reply scored at the top of the range (within the manifest's tolerance), state.
    bundle = tmp_path / f"{task}.artifacts"
    subject = json.loads((bundle / "run-manifest.json").read_text())["provider"]
    assert subject["limits"]["NetworkMode"] == "none" and subject["user"] == "65532:65532"
    assert subject["network"]["namespace"]["interfaces"] == ["lo"]
    trace = json.loads((bundle / "collector-trace.json").read_text())
    assert [row["operation"] for row in trace] == ["reset", "state", "step", "state"]
    assert trace[2]["response_json"]["data"]["reward"] >= 1 - ORACLE_TOLERANCE
    assert report["verdict"] == "warn"  # only the skipped warn-level checks keep it from pass
