"""How long `mlflow ui` takes to answer, with its default workers and with `--workers 1`.

    .venv/bin/python experiments/2026-12-07_mlflow_startup/startup.py --trials 3

Copies outputs/mlflow.db (SQLite's backup API: the store may be written meanwhile) to /tmp, then
for each trial launches `.venv/bin/mlflow ui --backend-store-uri sqlite:///<copy> --port <free>`
once as printed and once with `--workers 1`, the order swapped every trial, at the caller's
priority; polls `GET /health` every 0.25 s and stops the server (its process group) as soon as
it answers 200. One row per launch goes to results.csv beside this file: seconds to 200, the
1-minute load average at launch, and how many lines of the server's log say a worker died or was
killed.
"""

import argparse
import csv
import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).parent
MLFLOW = Path(".venv/bin/mlflow").absolute()
SCRATCH = Path("/tmp/mlflow_startup")  # the server's cwd: where it makes mlartifacts/
DEATH_WORDS = ("died", "killed", "failed to start", "Waiting for child process")


def copy_store(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def launch(store: Path, workers: str, log: Path, limit_s: float) -> dict:
    port = free_port()
    command = [str(MLFLOW), "ui", "--backend-store-uri", f"sqlite:///{store}", "--port", str(port)]
    command += [] if workers == "default" else ["--workers", workers]
    load = os.getloadavg()[0]
    started = time.monotonic()
    with log.open("w") as out:
        server = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, cwd=SCRATCH, start_new_session=True
        )
        try:
            while not answers(port) and time.monotonic() - started < limit_s:
                if server.poll() is not None:
                    break
                time.sleep(0.25)
            seconds = time.monotonic() - started
            ok = answers(port)
        finally:
            os.killpg(server.pid, signal.SIGKILL)  # the server and the workers it started
            server.wait()
    text = log.read_text()
    deaths = sum(line.count(w) > 0 for line in text.splitlines() for w in DEATH_WORDS)
    return {
        "workers": workers,
        "seconds": round(seconds, 1) if ok else "",
        "answered": ok,
        "load_1min_at_launch": round(load, 2),
        "worker_death_lines": deaths,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--limit-s", type=float, default=240)
    parser.add_argument("--store", default="outputs/mlflow.db")
    args = parser.parse_args()
    SCRATCH.mkdir(exist_ok=True)
    store = SCRATCH / "mlflow.db"
    copy_store(Path(args.store), store)
    rows = []
    for trial in range(args.trials):
        order = ["default", "1"] if trial % 2 == 0 else ["1", "default"]
        for workers in order:
            log = SCRATCH / f"trial{trial}_workers-{workers}.log"
            row = {"trial": trial, **launch(store, workers, log, args.limit_s)}
            rows.append(row)
            print(row, flush=True)
            time.sleep(5)  # let the killed server's processes go before the next launch
    with (HERE / "results.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
