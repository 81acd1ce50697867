"""A render fleet of containers: two running images of the environment render for training
(`renderer=remote`), and one of them is killed while it holds replies.

The servers run on an internal podman network (no route out, host-only: netavark forwards no
published port there, so the host reaches each at its address on the network;
scripts/container/start.sh). Killing a container (`podman kill`: SIGKILL, its Chromium with it)
while it renders costs the replies it held their verdict (None, an infrastructure failure), not
the batch: scored as TRL calls the reward functions (`RolloutScorer`), as
tests/env/test_render_fleet.py does with servers started from the checkout. Then a quick
training run (`debug=smoke`) trains through both, loses one after its first episode, and
finishes on the other. Skipped without podman but required in CI (tests/env/containers.py); the
run needs the smoke painter (cached).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
import urllib.request
import uuid
from types import SimpleNamespace

import pytest
from containers import build_image, marks, shell
from env_servers import REPO
from train_helpers import mlflow_client, train_command

from watercolor.config import reward_set
from watercolor.env.client import RemoteRenderer
from watercolor.rewards.trl_adapter import RolloutScorer
from watercolor.tracking import metric_name

pytestmark = marks(timeout=2400)  # the image's first build, two servers' start-up and the run
# One warm page each: two servers and the run share this machine's cores.
SERVE = ["python", "-m", "watercolor.env.serve", "--host", "0.0.0.0", "--workers", "1"]


def run(script: str, *args: str, timeout: float = 300) -> str:
    """bash `script` (containers.shell); its stdout, or the test fails."""
    done = shell(script, *args, timeout=timeout)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout.strip()


@pytest.fixture(scope="module")
def image() -> str:
    return build_image()


@pytest.fixture(scope="module")
def fleet(image):
    """Two servers on an internal network of their own: [(name, url)]; removed at the end (the
    last test kills one)."""
    tag = uuid.uuid4().hex[:8]
    network, names = f"watercolor-fleet-{tag}", [f"watercolor-fleet-{tag}-{x}" for x in "ab"]
    try:
        run('fleet_network "$1"', network)
        for name in names:
            start = 'WATERCOLOR_NETWORK="$1" start_subject "$2" "$3" painting "${@:4}"'
            run(start, network, name, image, *SERVE)
        for name in names:
            run('wait_healthy "$1" 300', name, timeout=330)
        yield [(name, run('address_of "$1" "$2"', name, network)) for name in names]
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


async def test_a_container_killed_mid_batch_costs_its_replies_a_verdict_not_the_batch(
    fleet, watercolour_reply
):
    """Two replies on each server at once; B is killed holding one: exactly B's are None."""
    (_, url_a), (name_b, url_b) = fleet
    renderer = RemoteRenderer([url_a, url_b], sessions_per_server=2, timeout_s=120, retry_after_s=1)
    _, b = renderer.servers
    scored = []
    scorer = RolloutScorer(reward_set("gated"), renderer, num_generations=4, on_batch=scored.append)
    functions, _ = scorer.reward_functions()

    def batch() -> asyncio.Future:
        kwargs = {
            "prompts": [[{"role": "user", "content": "paint a watercolour"}]] * 4,
            "completions": [[{"role": "assistant", "content": watercolour_reply}]] * 4,
            "trainer_state": SimpleNamespace(global_step=len(scored)),
        }
        return asyncio.gather(*(f(**kwargs) for f in functions))

    pending = batch()
    while b.in_flight == 0 and not pending.done():
        await asyncio.sleep(0.005)
    await asyncio.to_thread(subprocess.run, ["podman", "kill", name_b], check=True)
    outputs = await pending
    got = [values[0] is not None for values in zip(*outputs, strict=True)]
    lost = [i for i, ok in enumerate(got) if not ok]
    assert b.lost >= 1 and len(lost) == b.lost, (got, b)  # B's replies, and only those
    for i, canvas in enumerate(scored[-1].canvases):
        if i in lost:  # no verdict because B died holding it, not because of the sketch
            assert canvas.infra_failure and "mid-render" in canvas.errors[0], canvas.errors
        else:
            assert canvas.ok
    assert all(values[0] is not None for values in zip(*await batch(), strict=True))  # A's now
    subprocess.run(["podman", "start", name_b], capture_output=True, check=True)
    run('wait_healthy "$1" 300', name_b, timeout=330)  # back for the next test, at the
    # address its network gives it now: a restart may give another (the next test found B
    # unreachable at the old one); the fixture names each container "<network>-<a|b>"
    fleet[1] = (name_b, run('address_of "$1" "$2"', name_b, name_b.rsplit("-", 1)[0]))


def opened_an_episode(name: str, since: float) -> bool:
    """Whether the server has accepted a WebSocket session since `since` (uvicorn logs each
    one; a restarted container's log holds its earlier runs' lines too)."""
    command = ["podman", "logs", "--since", str(int(since)), name]
    logs = subprocess.run(command, capture_output=True, text=True)
    return "WebSocket /ws" in logs.stdout + logs.stderr


def test_a_quick_run_trains_through_a_fleet_of_containers_and_goes_on_without_one(fleet, tmp_path):
    """B is killed once it has opened an episode (the smoke painter's replies are mostly refused
    by the gate in milliseconds, so what B held may be answered first: the test above kills one
    mid-render); the run trains every step, on A after that."""
    (_, url_a), (name_b, url_b) = fleet
    overrides = ["renderer=remote", f"renderer.urls=[{url_a},{url_b}]", "renderer.timeout_s=120"]
    started, since = time.monotonic(), time.time()
    log = tmp_path / "train.log"  # a file: a pipe could fill up
    with log.open("w") as output:
        run = subprocess.Popen(
            train_command(tmp_path, *overrides),
            cwd=REPO,
            env={k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            while not opened_an_episode(name_b, since) and run.poll() is None:
                time.sleep(0.2)
            subprocess.run(["podman", "kill", name_b], capture_output=True, check=True)
            killed_s = time.monotonic() - started
            run.wait(timeout=1500)
        finally:
            run.kill()
    assert run.returncode == 0, log.read_text()[-4000:]

    client = mlflow_client(tmp_path)
    (record,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)

    def history(metric: str) -> list[float]:
        points = client.get_metric_history(record.info.run_id, metric)
        return [m.value for m in sorted(points, key=lambda m: (m.step, m.timestamp))]

    def counter(url: str, name: str) -> float:  # the name the run logs it under (`:` is `_`)
        return history(metric_name(f"rollouts/fleet/{url.split('//')[1]}/{name}"))[-1]

    steps, infra = len(history("reward/total")), history("rollouts/infra_failure_rate")
    a, b = (
        {n: counter(url, n) for n in ("rendered", "lost", "unreachable")} for url in (url_a, url_b)
    )
    print(f"\nB killed at {killed_s:.0f} s; run {time.monotonic() - started:.0f} s; "
          f"infra_failure_rate per step {infra}; A {a}; B {b}")  # fmt: skip
    assert steps == 3  # debug=smoke's max_steps: every step trained
    assert all(rate < 1 for rate in infra)  # no batch lost
    assert b["rendered"] + b["lost"] >= 1  # B took part before it was killed
    assert b["unreachable"] >= 1 and a["rendered"] > b["rendered"]  # A took B's turns after
    assert a["rendered"] + b["rendered"] + b["lost"] >= 4 * steps  # every reply: answered or lost
