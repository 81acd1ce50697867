"""A sweep as Ray tasks on a real Ray cluster, then `compare` over it.

A Ray head is started here on 127.0.0.1 (`ray start --head --block`, in its own process group,
ended by that group when the test is done); `python -m watercolor.train --multirun
hydra/launcher=ray_cluster` submits the three smoke jobs (coarse, fine_grained, gated) to it
through Hydra's Ray launcher; each must finish as its own MLflow run, and `compare` lays them
side by side. All three jobs at once (a CPU each), one short GRPO step each.

The head runs as the README's Ray section says: on loopback, with Ray's token authentication
(`RAY_AUTH_MODE=token`, one token for the head and the sweep). A second head without
authentication checks that the sweep warns when it joins one, and stops when no node can hold
a job.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from train_helpers import REPO, mlflow_client, train_command

from watercolor.analysis import comparison

pytestmark = [pytest.mark.slow, pytest.mark.browser]
REWARD_SETS = ["coarse", "fine_grained", "gated"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_group(process: subprocess.Popen) -> None:
    """End the head and everything it started (its process group), politely first."""
    for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue


def ray_env(auth: dict[str, str]) -> dict[str, str]:
    """This process's environment for Ray and the sweep, with `auth`'s variables."""
    # Ray's workers inherit the head's environment: not a tracking URI that an earlier test's
    # mlflow.set_tracking_uri left in os.environ (it sets the variable), which would win over the
    # jobs' tracking.uri and send their runs to that test's store.
    drop = ("MLFLOW_TRACKING_URI", "RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN",
            "RAY_AUTH_TOKEN_PATH")  # fmt: skip
    return {k: v for k, v in os.environ.items() if k not in drop} | auth


@pytest.fixture
def token_auth(tmp_path) -> dict[str, str]:
    """Ray's token authentication, as the README starts a cluster: one token in a file."""
    token = tmp_path / "ray_token"
    token.write_text(secrets.token_hex(32))
    return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}


@pytest.fixture
def ray_head(tmp_path, token_auth) -> Iterator[str]:
    """`host:port` of a one-node Ray cluster on loopback with 3 CPUs (one per job), with
    token authentication."""
    yield from start_head(tmp_path, token_auth)


@pytest.fixture
def open_ray_head(tmp_path) -> Iterator[str]:
    """The same cluster with no authentication."""
    yield from start_head(tmp_path, {"RAY_AUTH_MODE": "disabled"})


def start_head(tmp_path: Path, auth: dict[str, str]) -> Iterator[str]:
    port = free_port()
    # Short: Ray's unix sockets live under it (a path may not exceed 107 bytes).
    temp_dir = tempfile.mkdtemp(prefix="ray-")
    log = tmp_path / "ray_head.log"
    command = [
        str(Path(sys.executable).parent / "ray"), "start", "--head", "--block",
        f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=3", "--num-gpus=0",
        "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp_dir}",
    ]  # fmt: skip
    with log.open("w") as out:
        head = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=ray_env(auth),
                                start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log.read_text():
            assert head.poll() is None, f"ray start failed:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"no Ray head after 120 s:\n{log.read_text()}"
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        stop_group(head)
        subprocess.run(["rm", "-rf", temp_dir], check=False)


def test_three_reward_sweep_runs_as_ray_tasks_and_compares(
    tmp_path, ray_head, token_auth, monkeypatch
):
    command = train_command(
        tmp_path, "hydra/launcher=ray_cluster", f"hydra.launcher.ray.init.address={ray_head}",
        "hydra.launcher.ray.remote.num_gpus=0", "hydra.launcher.ray.remote.num_cpus=1",
        f"reward={','.join(REWARD_SETS)}", "trainer.max_steps=1", "threads=1",
        # The sweep is under test, not training: one step of a group of two short replies.
        "trainer.num_generations=2", "trainer.per_device_train_batch_size=2",
        "trainer.max_completion_length=128", multirun=True,
    )  # fmt: skip
    result = subprocess.run(command, cwd=REPO, env=ray_env(token_auth), capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "without a token" not in output  # the cluster has authentication
    assert "Ray Launcher is launching 3 jobs" in output
    assert "(_run_job pid=" in output  # the jobs' output came back from Ray workers

    client = mlflow_client(tmp_path)
    runs = client.search_runs([client.get_experiment_by_name("watercolor").experiment_id])
    assert sorted(r.data.tags["reward"] for r in runs) == REWARD_SETS
    assert {r.info.status for r in runs} == {"FINISHED"}
    sweep = tmp_path / "sweep"
    jobs = sorted(sweep.glob("[0-9]*_*"))
    assert [j.name for j in jobs] == ["0_coarse", "1_fine_grained", "2_gated"]
    assert {(j / "mlflow_run_id").read_text() for j in jobs} == {r.info.run_id for r in runs}

    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path}/mlflow.db")
    comparison.main(["--sweep-dir", str(sweep), "--out", str(tmp_path / "compare")])
    table = pd.read_csv(tmp_path / "compare" / "runs.csv")
    assert sorted(table["reward_set"]) == REWARD_SETS
    assert "final/reward/total" in table and (table["steps"] == 1).all()
    assert (tmp_path / "compare" / "curves.png").is_file()
    assert "grid.png" in (tmp_path / "compare" / "gallery.html").read_text()


def test_a_sweep_no_node_can_hold_stops_at_once_and_says_why(tmp_path, open_ray_head):
    # The launcher's default asks each job for a GPU and 8 CPUs; this cluster has 3 CPUs and no
    # GPU, so Ray would leave the jobs pending for ever without an error.
    address = f"hydra.launcher.ray.init.address={open_ray_head}"
    command = train_command(tmp_path, "hydra/launcher=ray_cluster", address, multirun=True)
    env = ray_env({"RAY_AUTH_MODE": "disabled"})
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True,
                            timeout=300)  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-4000:]
    assert f"joined the Ray cluster at '{open_ray_head}' without a token" in output
    asked = "each job asks Ray for CPU=8, GPU=1, but no node has that (nodes: CPU=3, GPU=0)"
    assert asked in output
    assert "Ray Launcher is launching" not in output  # nothing was submitted
