"""A sweep ends in its comparison: `CompareSweep`, a Hydra callback that conf/train.yaml lists.

    python -m watercolor.train --multirun debug=quick reward=coarse,fine_grained,gated

When the last job of a `--multirun` has finished, `watercolor.compare` runs over the sweep's own
jobs, from the store they logged to, into `<sweep dir>/compare`, and prints its tables, where its
files are and the MLflow link that shows the jobs side by side. A study (an experiment with the
`study` callback, `watercolor.training.study.Study`) compares its records itself, after its
evaluations, so this leaves it alone; `study.compare=false` leaves the comparison out of either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hydra.core.hydra_config import HydraConfig
from hydra.experimental.callback import Callback
from omegaconf import DictConfig

COMPARE_DIR = "compare"  # under the sweep dir


class CompareSweep(Callback):
    """Run `watercolor.compare --sweep-dir` over the sweep when its jobs are done."""

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        if "study" in (config.hydra.callbacks or {}) or not config.study.compare:
            return
        # No job runs now, so Hydra has no config set: the sweep's own one resolves its paths.
        HydraConfig.instance().set_config(config)
        sweep_dir = Path(config.hydra.sweep.dir)
        print(f"\nsweep: comparing the jobs of {sweep_dir}", flush=True)
        try:
            compare_sweep(sweep_dir)
        except Exception as exc:  # Hydra would only warn: the command must say it failed
            raise SystemExit(f"sweep: the comparison failed: {exc!r} (the jobs' runs are in "
                             f"their store; `python -m watercolor.compare --sweep-dir "
                             f"{sweep_dir}` runs it again)") from exc  # fmt: skip


def compare_sweep(sweep_dir: Path) -> None:
    """`watercolor.compare` over the jobs of `sweep_dir`, into its `compare` folder."""
    from watercolor.analysis import comparison  # matplotlib and the canvas sources: only at the end

    comparison.main(["--sweep-dir", str(sweep_dir), "--out", str(sweep_dir / COMPARE_DIR)])
