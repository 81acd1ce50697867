"""CPU seconds of `watercolor.tracking.log_rollouts` a step: 20 steps of 8 real canvases.

    python experiments/2026-12-02_trainer_overhead/probe_logging.py

Run from the repository root. The canvases are the v2 study's gallery PNGs (300x300, rendered
at the training pixel density by compare), each with a 900-character sketch; the store is a
scratch sqlite store. Prints the mean CPU seconds of the first 5, the last 5 and all steps.
"""

import os
import statistics
import tempfile
import time
from pathlib import Path

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import Score
from watercolor.rewards.trl_adapter import Rollouts
from watercolor.tracking import log_rollouts, mlflow_run

CANVASES = Path("experiments/2026-12-01_three_rewards_v2/compare/matrix_canvases")
PNGS = [path.read_bytes() for path in sorted(CANVASES.glob("*/*.png"))[:8]]
REPLY = "x" * 900


def batch(step: int) -> Rollouts:
    canvases = [Canvas(Status.OK, png=png, sketch=REPLY) for png in PNGS]
    scores = [Score(0.5, {"coverage": 0.5, "gate_pass": 1.0}, True) for _ in PNGS]
    return Rollouts(step, ["paint a poppy"] * 8, [REPLY] * 8, canvases, scores)


os.environ.pop("MLFLOW_TRACKING_URI", None)
cpu = []
with tempfile.TemporaryDirectory() as tmp:
    uri, folder = f"sqlite:///{tmp}/m.db", Path(tmp)
    with mlflow_run(uri, "probe", params={}, tags={}, run_dir=folder / "job",
                    artifact_root=str(folder / "art"), run_name="probe"):  # fmt: skip
        for step in range(1, 21):
            start = time.process_time()
            log_rollouts(batch(step))
            cpu.append(time.process_time() - start)
print({"first5": round(statistics.fmean(cpu[:5]), 3), "last5": round(statistics.fmean(cpu[-5:]), 3),
       "mean": round(statistics.fmean(cpu), 3)})  # fmt: skip
