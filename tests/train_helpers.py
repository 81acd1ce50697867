"""Helpers for end-to-end training tests: run `python -m watercolor.train` for real."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mlflow

REPO = Path(__file__).resolve().parents[1]
# The tiny model is built once per machine and reused (cached by a hash of its config).
CACHE = REPO / "outputs" / "cache"


def train_command(
    tmp: Path, *overrides: str, multirun: bool = False, debug: str = "smoke"
) -> list[str]:
    """`python -m watercolor.train debug=<debug> ...` writing only under `tmp` (cache shared)."""
    dirs = [f"hydra.sweep.dir={tmp}/sweep"] if multirun else [f"hydra.run.dir={tmp}/run"]
    return [
        sys.executable,
        "-m",
        "watercolor.train",
        *(["--multirun"] if multirun else []),
        f"debug={debug}",
        f"tracking.uri=sqlite:///{tmp}/mlflow.db",
        f"tracking.artifacts={tmp}/artifacts",
        f"paths.cache={CACHE}",
        *dirs,
        *overrides,
    ]


def run_training(
    tmp: Path, *overrides: str, multirun: bool = False, timeout: int = 900, debug: str = "smoke"
):
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    result = subprocess.run(
        train_command(tmp, *overrides, multirun=multirun, debug=debug),
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result


def mlflow_client(tmp: Path) -> mlflow.MlflowClient:
    return mlflow.MlflowClient(tracking_uri=f"sqlite:///{tmp}/mlflow.db")


def finished_study_job(tmp: Path, overrides: list[str], experiment: str, run_name: str):
    """The config of a study's job 0 that has finished: composed with `overrides` and a store in
    `tmp`, set as Hydra's, its training run logged (named `run_name`) into `<tmp>/sweep/0`."""
    from hydra.core.hydra_config import HydraConfig
    from omegaconf import open_dict

    from watercolor.config import compose_config
    from watercolor.tracking import mlflow_run

    uri = f"sqlite:///{tmp}/mlflow.db"
    cfg = compose_config("train", [*overrides, f"tracking.uri={uri}",
                                   f"tracking.artifacts={tmp}/art"],
                         return_hydra_config=True)  # fmt: skip
    job_dir = tmp / "sweep" / "0"
    with open_dict(cfg):
        cfg.hydra.sweep.dir, cfg.hydra.sweep.subdir = str(tmp / "sweep"), "0"
        cfg.hydra.runtime.output_dir = str(job_dir)
    HydraConfig.instance().set_config(cfg)
    with mlflow_run(uri, experiment, params={}, tags={}, run_dir=job_dir, run_name=run_name,
                    artifact_root=f"{tmp}/art"):  # fmt: skip
        pass
    return cfg
