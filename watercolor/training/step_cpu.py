"""What a training step costs in CPU-seconds, over every process of the job, by part.

    >>> clock = StepCpu(rewards_cpu)     # watercolor.train adds it (tracking.cpu_split)
    >>> GRPOTrainer(..., callbacks=[clock, logger]).train()  # first: train.step_callbacks
    # each step logs step_cpu/total_s and its parts to the active MLflow run:
    #   step_cpu/generation_s  the trainer process from the step's start to the rewards call
    #   step_cpu/render_s      Chromium and Playwright's driver, plus the trainer's share of the
    #                     rewards call that is not scoring (it drives the browser)
    #   step_cpu/scoring_s     the reward set's scoring thread (exact: that thread's own clock)
    #   step_cpu/yardsticks_s  the job's whole CPU while the yardsticks measured the batch
    #                     (watercolor.training.yardsticks: their twin renders included)
    #   step_cpu/update_s      the trainer from the rewards' return to the optimiser's step:
    #                     advantages, reference log-probs, loss, backward, optimiser
    #   step_cpu/after_update_s  the optimiser's step to the step's end (scheduler, zeroing grads)
    #   step_cpu/logging_s     the step's end to the next step's start: metrics and rollouts to
    #                     MLflow (watercolor.training.mlflow_callback), transformers' log and save
    #   step_cpu/other_s       the rest of the process tree (anything else the job started)
    # and step_cpu/trainer_s, step_cpu/chromium_s, step_cpu/driver_s by process.

How the process tree is read, and how these figures differ from TRL's own timings: the comments
at `tree_cpu` and `StepCpu`.
"""

from __future__ import annotations

import contextlib
import os
import time

import mlflow
import psutil
from transformers import TrainerCallback

from watercolor.render.watchdog import command_line

PREFIX = "step_cpu/"  # sorts after reward and rollouts in the UI (watercolor.tracking)


def process_cpu() -> float:
    """User + system CPU seconds of this process, all its threads."""
    times = os.times()
    return times.user + times.system


def process_class(process: psutil.Process) -> str:
    """chromium, driver (Playwright's node process) or other, from the command line."""
    with contextlib.suppress(psutil.Error):
        command = command_line(process)
        name = command.split(" ", 1)[0].rsplit("/", 1)[-1]
        if name.startswith("chrom") or "--type=" in command:
            return "chromium"
        if name.startswith("node") or "playwright" in command:
            return "driver"
    return "other"


# The job's process tree is read with psutil: each process's own user + system time plus that of its
# children which have exited and been waited for (so a renderer that died mid-step still counts,
# with the process that reaped it). The trainer reaps orphaned Chromium helpers itself
# (`render.watchdog.adopt_orphans`), so its waited-for children count as Chromium. The trainer's
# windows are read with `os.times()` (all its threads) at the callback events and at the start and
# end of the rewards call. With `overlap_rendering`, renders start during generation and the
# trainer's share of driving them lands in `step_cpu/generation_s`; Chromium's own time is counted
# wherever it falls.
def tree_cpu(root: int | None = None) -> dict[str, float]:
    """CPU seconds so far of `root` (default: this process) and every process below it, by
    class: `trainer` (root's own time), `chromium`, `driver`, `other`; each process with its
    exited, waited-for children (root's count as chromium: it reaps only browser helpers)."""
    top = psutil.Process(os.getpid() if root is None else root)
    totals = dict.fromkeys(("trainer", "chromium", "driver", "other"), 0.0)
    with contextlib.suppress(psutil.Error):
        for process in [top, *top.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                own = times.user + times.system
                reaped = times.children_user + times.children_system
                if process.pid == top.pid:
                    totals["trainer"] += own
                    totals["chromium"] += reaped
                else:
                    totals[process_class(process)] += own + reaped
    return totals


class RewardsCpu:
    """The trainer's CPU at the start and end of one rewards call, and its scoring thread's."""

    def __init__(self) -> None:
        self.started = self.ended = None
        self.scoring = 0.0
        self.yardsticks: dict[str, float] = {}  # the job's CPU by process class while measuring

    def start(self) -> None:
        self.started, self.ended, self.scoring, self.yardsticks = process_cpu(), None, 0.0, {}

    def end(self) -> None:
        self.ended = process_cpu()

    @contextlib.contextmanager
    def scoring_thread(self):
        """Counts the CPU of the calling thread while inside (the scoring runs in one)."""
        before = time.thread_time()
        try:
            yield
        finally:
            self.scoring += time.thread_time() - before

    @contextlib.contextmanager
    def yardsticks_window(self):
        """Counts the job's whole process tree while inside as the yardsticks' (their twin
        renders in Chromium, their measuring in the trainer): the trainer waits for the rewards
        call meanwhile, and every render of the batch has returned."""
        before = tree_cpu()
        try:
            yield
        finally:
            after = tree_cpu()
            for name, value in before.items():
                self.yardsticks[name] = self.yardsticks.get(name, 0.0) + after[name] - value


# TRL times its blocks too (`profiling/Time taken: ...`, wall seconds), and logs them only to a
# tracker named in `report_to`: `tracking.trl_profiling=true` names MLflow there (watercolor logs
# everything else itself, see `watercolor.training.mlflow_callback`). Those are wall seconds of the
# trainer's blocks; these figures are CPU over the whole process tree.
class StepCpu(TrainerCallback):
    """Logs each step's CPU-seconds by part (module docstring) to the active MLflow run.

    A step's figures are logged when the next step starts (its logging is part of them), and
    the last step's at the end of training.
    """

    def __init__(self, rewards: RewardsCpu) -> None:
        self.rewards = rewards
        self.marks: dict[str, float] = {}
        self.tree: dict[str, float] | None = None
        self.step: int | None = None

    def on_step_begin(self, args, state, control, **kwargs):
        now = self.close()
        self.step, self.tree = state.global_step + 1, now or tree_cpu()
        self.marks = {"begin": process_cpu()}

    def on_optimizer_step(self, args, state, control, **kwargs):
        self.marks["optimised"] = process_cpu()

    def on_step_end(self, args, state, control, **kwargs):
        self.marks["end"] = process_cpu()

    def on_train_end(self, args, state, control, **kwargs):
        self.close()

    def close(self) -> dict[str, float] | None:
        """Log the step under way (if any) up to now; the tree's CPU now, if it was read."""
        if self.step is None or self.tree is None:
            return None
        now, marks = tree_cpu(), self.marks | {"next": process_cpu()}
        metrics = split(marks, self.tree, now, self.rewards)
        if mlflow.active_run() is not None:
            mlflow.log_metrics({PREFIX + k: round(v, 4) for k, v in metrics.items()}, self.step)
        self.step = self.tree = None
        return now


def split(
    marks: dict[str, float], before: dict[str, float], after: dict[str, float], rewards: RewardsCpu
) -> dict[str, float]:
    """One step's parts from the trainer's marks (begin, optimised, end, next), the tree's CPU
    at its start and end, and the rewards call's marks. A mark that never came (a step with no
    rewards call or no optimiser step) gives its part 0 and leaves its time to the next part."""
    by_process = {k: after[k] - before[k] for k in before}
    started = rewards.started if rewards.started is not None else marks["begin"]
    ended = rewards.ended if rewards.ended is not None else started
    optimised = marks.get("optimised", ended)
    end = marks.get("end", optimised)
    # The trainer's share of the rewards call that is not scoring drives the browser. os.times()
    # ticks in 10 ms steps and the scoring thread's clock does not, so the difference can come
    # out a tick below zero when the trainer barely drove the browser: it is then 0.
    measuring = dict.fromkeys(by_process, 0.0) | rewards.yardsticks
    driving = max(0.0, ended - started - rewards.scoring - measuring["trainer"])
    rendering = by_process["chromium"] + by_process["driver"]
    yardstick_renders = measuring["chromium"] + measuring["driver"]
    parts = {
        "generation_s": started - marks["begin"],
        "render_s": rendering - yardstick_renders + driving,
        "scoring_s": rewards.scoring,
        "yardsticks_s": sum(measuring.values()),
        "update_s": optimised - ended,
        "after_update_s": end - optimised,
        "logging_s": marks["next"] - end,
        "other_s": by_process["other"],
    }
    total = sum(by_process.values())
    rewards.started = rewards.ended = None
    rewards.scoring, rewards.yardsticks = 0.0, {}
    return (
        {"total_s": total}
        | {k: max(0.0, v) for k, v in parts.items()}
        | {f"{k}_s": v for k, v in by_process.items()}
    )
