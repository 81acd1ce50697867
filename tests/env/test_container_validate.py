"""OpenEnv's validator at its runtime level on each task's package: it builds the package's
Dockerfile (FROM the environment's image), starts it as its Docker-local provider does (no
network, read-only, no capabilities, an unnamed user, the manifest's CPUs and memory), plays the
oracle's plan over the WebSocket and measures the network from the subject's namespace.

scripts/container/validate.py runs it (`openenv validate envs/<task> --level runtime`'s runner,
with the provider's network helper a local image: none can be pulled here). Every runtime check
openenv 0.10 implements must pass; the rest skip as not implemented. Skipped without podman but
required in CI (tests/env/containers.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from containers import SCRIPTS, build_image, marks
from env_servers import REPO

from watercolor.env.manifest import ORACLE_TOLERANCE

pytestmark = marks(timeout=1800)
# What openenv 0.10 grades at runtime (its graders: openenv.validation.runner).
IMPLEMENTED = {
    "runtime.startup",
    "runtime.reward_well_formed",
    "runtime.observation_schema",
    "runtime.state_contract",
    "runtime.network_policy",
}


def start_up_ran_out(report_path) -> bool:
    """Whether the subject's start-up outran the provider's deadline: 30 s, fixed in openenv 0.10
    (`SubjectSpec.startup_timeout_s`'s default), which the server's start (imports, Chromium)
    took 22-36 s to reach on 2 cores shared with other work. It fails as "Subject did not return
    HTTP 200 from /health before its deadline" or, when the deadline ran out during one of the
    provider's docker calls, "Docker operation exceeded its deadline"."""
    if not report_path.exists():
        return False
    results = {r["check_id"]: r for r in json.loads(report_path.read_text())["results"]}
    startup = results.get("runtime.startup", {})
    evidence = startup.get("evidence", [])
    return startup.get("status") == "fail" and any("deadline" in line for line in evidence)


@pytest.fixture(scope="module")
def image() -> str:
    return build_image()


@pytest.mark.parametrize("task", ["painting", "svg"])
def test_openenv_validate_runtime_passes_every_check_it_implements(image, task, tmp_path):
    report_path = tmp_path / f"{task}.json"
    for _ in range(5):  # another try only when the provider's fixed 30 s start-up ran out
        ran = subprocess.run(
            [sys.executable, str(SCRIPTS / "validate.py"), task, "--json", str(report_path)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=900,
        )
        print(ran.stdout)
        if not start_up_ran_out(report_path):
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
