"""A render fleet of containers: a quick training run (`renderer=remote`) renders on two running
images of the environment, and one of them is killed while it holds replies.

The servers run on an internal podman network (no route out, host-only: netavark forwards no
published port there, so the host reaches each at its address on the network;
scripts/container/start.sh). Server B is killed (`podman kill`: SIGKILL, its Chromium with it)
once it has opened an episode of the first step; the replies it held come back with no verdict
(None, `infrastructure`), the others of that batch are scored, and the run goes on on A.
Skipped without podman; the run needs the smoke painter (built on first use, cached).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
import uuid

import pytest
from env_servers import REPO
from train_helpers import mlflow_client, train_command

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.timeout(2400),  # the image's first build, two servers' start-up and the run
    pytest.mark.skipif(
        shutil.which("podman") is None,
        reason="podman is not installed: bash scripts/container/prepare.sh (root) installs it",
    ),
]

SCRIPTS = REPO / "scripts" / "container"
os.environ.setdefault("CONTAINERS_CONF", str(SCRIPTS / "containers.conf"))
IMAGE = "localhost/watercolor-env:latest"
# One warm page each: two servers and the run share this machine's cores.
SERVE = ["python", "-m", "watercolor.env.serve", "--host", "0.0.0.0", "--workers", "1"]


def shell(script: str, *args: str, timeout: float = 300) -> str:
    """bash `script` with scripts/container/env.sh and start.sh sourced; its stdout."""
    command = f"source {SCRIPTS}/env.sh && source {SCRIPTS}/start.sh && {script}"
    done = subprocess.run(
        ["bash", "-c", command, "bash", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout.strip()


@pytest.fixture(scope="module")
def image() -> str:
    built = subprocess.run(
        ["bash", str(SCRIPTS / "build.sh")], cwd=REPO, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return IMAGE


@pytest.fixture(scope="module")
def fleet(image):
    """Two servers on an internal network of their own: [(name, url)]; removed at the end (the
    last test kills one)."""
    tag = uuid.uuid4().hex[:8]
    network, names = f"watercolor-fleet-{tag}", [f"watercolor-fleet-{tag}-{x}" for x in "ab"]
    try:
        shell('fleet_network "$1"', network)
        for name in names:
            start = 'WATERCOLOR_NETWORK="$1" start_subject "$2" "$3" painting "${@:4}"'
            shell(start, network, name, image, *SERVE)
        for name in names:
            shell('wait_healthy "$1" 300', name, timeout=330)
        yield [(name, shell('address_of "$1" "$2"', name, network)) for name in names]
    finally:
        subprocess.run(["podman", "rm", "-f", "--time", "0", *names], capture_output=True)
        subprocess.run(["podman", "network", "rm", "-f", network], capture_output=True)


def test_a_fleet_server_is_reached_from_the_host_and_reaches_nothing(fleet):
    """Its network is internal: the host reaches its server, it has no route out."""
    (name, url), _ = fleet
    probe = (
        "import socket\n"
        "try:\n    socket.create_connection(('1.1.1.1', 80), timeout=3); print('reached')\n"
        "except OSError as error:\n    print('refused', error)\n"
    )
    result = subprocess.run(
        ["podman", "exec", "-i", name, "python", "-"],
        input=probe,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.startswith("refused"), result.stdout + result.stderr
    with urllib.request.urlopen(f"{url}/health", timeout=10) as answer:
        assert answer.status == 200


def opened_an_episode(name: str) -> bool:
    """Whether the server has accepted a WebSocket session (uvicorn logs each one)."""
    logs = subprocess.run(["podman", "logs", name], capture_output=True, text=True)
    return "WebSocket /ws" in logs.stdout + logs.stderr


def test_a_quick_run_trains_through_a_fleet_of_containers_and_survives_a_kill(fleet, tmp_path):
    (_, url_a), (name_b, url_b) = fleet
    overrides = ["renderer=remote", f"renderer.urls=[{url_a},{url_b}]", "renderer.timeout_s=120"]
    started = time.monotonic()
    run = subprocess.Popen(
        train_command(tmp_path, *overrides),
        cwd=REPO,
        env={k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        while not opened_an_episode(name_b) and run.poll() is None:
            time.sleep(0.2)
        time.sleep(0.5)  # its reset answered, the reply sent: B is rendering it
        subprocess.run(["podman", "kill", name_b], capture_output=True, check=True)
        killed_s = time.monotonic() - started
        output, _ = run.communicate(timeout=1500)
    finally:
        run.kill()
    assert run.returncode == 0, output[-4000:]

    client = mlflow_client(tmp_path)
    (record,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)

    def history(metric: str) -> list[float]:
        return [m.value for m in client.get_metric_history(record.info.run_id, metric)]

    def counter(url: str, name: str) -> float:
        return history(f"rollouts/fleet/{url.split('//')[1]}/{name}")[-1]

    steps = len(history("reward/total"))
    infra = history("rollouts/infra_failure_rate")
    print(f"\nB killed at {killed_s:.0f} s; run {time.monotonic() - started:.0f} s; "
          f"infra_failure_rate per step {infra}; "
          f"A rendered {counter(url_a, 'rendered')}, B lost {counter(url_b, 'lost')}")  # fmt: skip
    assert steps == 3  # debug=smoke's max_steps: every step trained
    assert counter(url_b, "lost") >= 1  # the replies B held: each a None, not a 0
    assert 0 < infra[0] < 1  # the batch lost B's replies only: A's were scored
    assert infra[1:] == [0.0] * (steps - 1)  # then A took every reply
    answered = counter(url_a, "rendered") + counter(url_b, "rendered")
    assert answered + counter(url_b, "lost") == 4 * steps  # every reply: a verdict or lost
