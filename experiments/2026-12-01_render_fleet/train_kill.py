"""Smoke-scale training with renderer=remote on two local servers; one killed mid-render, restarted.

    .venv/bin/python experiments/2026-12-01_render_fleet/train_kill.py /tmp/fleet/run 8

Starts two `python -m watercolor.env.serve` on loopback ports, runs `python -m watercolor.train`
(the tiny default, 4 generations a step, reward=gated) against both, waits for checkpoint-2,
then SIGKILLs server B's process group (it and its Chromium) as soon as B burns CPU (a render
under way), restarts B on the same port with info logging, and prints per-step reward,
infra_failure_rate and execution_rate from MLflow, and how many sessions the restarted B took.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests" / "env"), str(REPO / "tests" / "train")]
from env_servers import free_port, kill_group, start_server, wait_until_healthy  # noqa: E402
from train_helpers import mlflow_client, train_command  # noqa: E402

FLAGS = ["--workers", "1", "--max-sessions", "8", "--pixel-density", "0.5", "--time-limit", "8"]


def group_cpu_ticks(group: int) -> int:
    """CPU ticks (user + system) of every process in process group `group`."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total


def kill_when_rendering(server: subprocess.Popen, training: subprocess.Popen) -> None:
    """SIGKILL the server's group once it uses >= 30 ms of CPU in 50 ms (Chromium drawing)."""
    last = group_cpu_ticks(server.pid)
    while training.poll() is None:
        time.sleep(0.05)
        now = group_cpu_ticks(server.pid)
        if now - last >= 3:
            break
        last = now
    kill_group(server)


def main(tmp: Path, steps: int) -> None:
    tmp.mkdir(parents=True, exist_ok=True)
    ports = [free_port(), free_port()]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    servers = [start_server(port, *FLAGS, new_session=True) for port in ports]
    for url, server in zip(urls, servers, strict=True):
        wait_until_healthy(url, server)
    command = train_command(
        tmp, "reward=gated", "renderer=remote", f"renderer.urls=[{urls[0]},{urls[1]}]",
        "renderer.retry_after_s=1", f"trainer.max_steps={steps}", "trainer.num_generations=4",
        "trainer.per_device_train_batch_size=4", "trainer.save_steps=2",
        "tracking.log_canvases_every=0",
    )  # fmt: skip
    command.remove("debug=smoke")  # the smoke model's replies are cut off: nothing would render
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    started = time.monotonic()
    with open(tmp / "train.log", "w") as log:
        training = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
    while not (tmp / "run" / "checkpoint-2").is_dir() and training.poll() is None:
        time.sleep(0.5)
    kill_when_rendering(servers[1], training)
    print(f"killed B at {time.monotonic() - started:.1f} s", flush=True)
    time.sleep(3)
    with open(tmp / "b_restarted.log", "w") as log:
        restart = [sys.executable, "-m", "watercolor.env.serve", "--port", str(ports[1])]
        restart += ["--log-level", "info", *FLAGS]
        servers[1] = subprocess.Popen(
            restart, cwd=REPO, start_new_session=True, stdout=log, stderr=subprocess.STDOUT
        )
    wait_until_healthy(urls[1], servers[1])
    print(f"B back at {time.monotonic() - started:.1f} s", flush=True)
    code = training.wait()
    print(f"training exit code {code}, wall {time.monotonic() - started:.1f} s")
    for server in servers:
        kill_group(server)
    report(tmp)


def report(tmp: Path) -> None:
    client = mlflow_client(tmp)
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    for name in ("reward", "infra_failure_rate", "execution_rate"):
        history = sorted(client.get_metric_history(run.info.run_id, name), key=lambda m: m.step)
        print(name, [(m.step, round(m.value, 3)) for m in history])
    print("run status", run.info.status)
    accepted = (tmp / "b_restarted.log").read_text().count("[accepted]")
    print("sessions the restarted B accepted:", accepted)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8)
