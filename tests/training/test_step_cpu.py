"""A step's CPU by part over the job's process tree (watercolor/training/step_cpu.py)."""

from __future__ import annotations

import subprocess
import sys
import time

import mlflow
import pytest

from watercolor.tracking import use_store
from watercolor.training.step_cpu import RewardsCpu, StepCpu, process_cpu, split, tree_cpu

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def wait_for(condition, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_process_that_exited_still_counts_with_the_one_that_waited_for_it(tmp_path):
    # root -> middle (waits for a grandchild that burns 0.6 s and exits, then sleeps).
    done = tmp_path / "done"
    middle = (
        "import subprocess, sys, time, pathlib\n"
        f"subprocess.run([sys.executable, '-c', {BURN.format(s=0.6)!r}], check=True)\n"
        f"pathlib.Path({str(done)!r}).touch()\n"
        "time.sleep(30)\n"
    )
    root = subprocess.Popen([sys.executable, "-c", f"import subprocess, sys, time\n"
                             f"subprocess.Popen([sys.executable, '-c', {middle!r}])\n"
                             "time.sleep(30)\n"])  # fmt: skip
    try:
        wait_for(done.exists)
        found = tree_cpu(root.pid)
        assert found["other"] >= 0.55, found  # the grandchild is gone; its time is not
        assert found["trainer"] < 0.5 and found["chromium"] == 0 and found["driver"] == 0
    finally:
        root.kill()


def test_chromium_and_the_driver_are_told_apart_by_their_command_lines(tmp_path):
    # Two children that burn 0.3 s each, one named like Chromium, one like Playwright's node.
    burn = BURN.format(s=0.3) + "import pathlib, sys, time\npathlib.Path(sys.argv[1]).touch()\n"
    burn += "time.sleep(30)\n"
    script = (f"(exec -a chromium {sys.executable} -c '{burn}' {tmp_path}/a) & "
              f"(exec -a node {sys.executable} -c '{burn}' {tmp_path}/b) & wait")  # fmt: skip
    root = subprocess.Popen(["bash", "-c", script])
    try:
        wait_for(lambda: (tmp_path / "a").exists() and (tmp_path / "b").exists())
        found = tree_cpu(root.pid)
        assert found["chromium"] >= 0.25 and found["driver"] >= 0.25, found
        assert found["other"] < 0.2, found
    finally:
        subprocess.run(["pkill", "-KILL", "-P", str(root.pid)], check=False)
        root.kill()


def test_the_parts_add_up_to_the_whole_and_scoring_is_its_threads_own():
    rewards = RewardsCpu()
    marks = {"begin": 10.0, "optimised": 14.0, "end": 14.5, "next": 15.0}
    rewards.started, rewards.ended, rewards.scoring = 11.0, 13.0, 0.5
    before = {"trainer": 10.0, "chromium": 100.0, "driver": 5.0, "other": 0.0}
    after = {"trainer": 15.0, "chromium": 103.0, "driver": 5.5, "other": 0.25}
    parts = split(marks, before, after, rewards)
    assert parts["generation_s"] == 1.0 and parts["update_s"] == 1.0
    assert parts["render_s"] == 3.0 + 0.5 + 2.0 - 0.5 and parts["scoring_s"] == 0.5
    assert parts["after_update_s"] == 0.5 and parts["logging_s"] == 0.5
    assert parts["total_s"] == 5.0 + 3.0 + 0.5 + 0.25
    summed = sum(parts[k] for k in parts if k not in ("total_s", "trainer_s", "chromium_s",
                                                      "driver_s"))  # fmt: skip
    assert summed == pytest.approx(parts["total_s"])
    assert rewards.started is None and rewards.scoring == 0  # each step starts afresh


def test_the_browser_is_never_charged_less_than_its_own_processes_used():
    # The rewards call is read with os.times() (10 ms ticks), scoring with the thread's own
    # clock: scoring can read a little more than the call around it (CI saw render_s 0.0398
    # beside chromium_s 0.04).
    rewards = RewardsCpu()
    rewards.started, rewards.ended, rewards.scoring = 2.0, 2.01, 0.0102
    zero = dict.fromkeys(("trainer", "chromium", "driver", "other"), 0.0)
    after = zero | {"trainer": 0.05, "chromium": 0.04}
    parts = split({"begin": 1.99, "next": 2.04}, zero, after, rewards)
    assert parts["render_s"] == parts["chromium_s"] + parts["driver_s"]


def test_a_step_without_a_rewards_call_leaves_its_time_to_the_update():
    marks = {"begin": 1.0, "optimised": 3.0, "end": 3.0, "next": 3.5}
    zero = dict.fromkeys(("trainer", "chromium", "driver", "other"), 0.0)
    parts = split(marks, zero, zero | {"trainer": 2.5}, RewardsCpu())
    assert parts["generation_s"] == 0 and parts["render_s"] == 0 and parts["update_s"] == 2.0


def test_each_step_is_logged_when_the_next_starts_and_the_last_at_the_end(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    client = mlflow.MlflowClient(f"sqlite:///{tmp_path}/mlflow.db")
    run = client.create_run(client.create_experiment("cpu"))
    rewards = RewardsCpu()
    clock = StepCpu(rewards)

    class State:
        global_step = 0

    use_store(f"sqlite:///{tmp_path}/mlflow.db")
    with mlflow.start_run(run_id=run.info.run_id):
        for step in range(2):
            State.global_step = step
            clock.on_step_begin(None, State, None)
            rewards.start()
            with rewards.scoring_thread():
                start = process_cpu()
                while process_cpu() - start < 0.2:
                    pass
            rewards.end()
            clock.on_optimizer_step(None, State, None)
            clock.on_step_end(None, State, None)
        clock.on_train_end(None, State, None)
    scoring = client.get_metric_history(run.info.run_id, "step_cpu/scoring_s")
    assert [m.step for m in scoring] == [1, 2]
    assert all(0.15 <= m.value <= 0.4 for m in scoring), scoring


def test_writing_a_steps_rollouts_counts_as_its_logging_not_its_update(tmp_path, monkeypatch):
    """Through transformers' own CallbackHandler, with the callbacks training uses, in its order."""
    from transformers import TrainerControl, TrainerState, TrainingArguments
    from transformers.trainer_callback import CallbackHandler

    from watercolor.training.job import step_callbacks
    from watercolor.training.mlflow_callback import RolloutLogger

    class Scorer:
        def note_step_start(self) -> None:
            pass

    logger = RolloutLogger(every=1)
    monkeypatch.setattr(logger, "flush", lambda: burn(0.3))  # writing a step's rollouts
    callbacks = step_callbacks(logger, Scorer(), RewardsCpu())
    handler = CallbackHandler(callbacks, None, None, None, None)
    args, state, control = TrainingArguments(str(tmp_path)), TrainerState(), TrainerControl()
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    client = mlflow.MlflowClient(f"sqlite:///{tmp_path}/mlflow.db")
    run = client.create_run(client.create_experiment("order"))
    use_store(f"sqlite:///{tmp_path}/mlflow.db")
    with mlflow.start_run(run_id=run.info.run_id):
        handler.on_step_begin(args, state, control)
        handler.on_optimizer_step(args, state, control)
        handler.on_step_end(args, state, control)
        handler.on_train_end(args, state, control)
    (logging,) = client.get_metric_history(run.info.run_id, "step_cpu/logging_s")
    (after,) = client.get_metric_history(run.info.run_id, "step_cpu/after_update_s")
    assert logging.value >= 0.25 and after.value < 0.1, (logging, after)


def burn(seconds: float) -> None:
    start = process_cpu()
    while process_cpu() - start < seconds:
        pass
