"""`bench grpo_steps`' modes without training: which runs each mode starts, and the ratios it prints
from their figures (tests/bench/test_bench_train.py runs the modes for real, slow tier)."""

from __future__ import annotations

from pathlib import Path

from watercolor.bench import cli, grpo_steps


def test_threads_mode_runs_the_sequential_steps_on_n_threads_and_prints_ratios(monkeypatch):
    started = []

    def split(args, overlap, jobs=1, overrides=()):
        started.append((overlap, jobs, list(overrides)))
        threads = 2 if "threads=2" in overrides else 1
        return {"step_s": 10.0 / threads, "cpu_total_s": 30.0 * threads,
                "cpu_generation_s": 4.0 * threads, "cpu_update_s": 1.0}  # fmt: skip

    monkeypatch.setattr(grpo_steps, "train_split", split)
    figures = grpo_steps.bench_train(cli.parse_args(["grpo_steps", "--smoke", "--threads", "2"]))
    assert started == [(False, 1, []), (True, 1, []), (False, 1, ["threads=2"])]
    assert figures["threads2_step_s_ratio"] == 0.5
    assert figures["threads2_cpu_total_s_ratio"] == 2.0
    assert figures["threads2_cpu_update_s_ratio"] == 1.0
    assert "threads2_step_s_ratio" not in grpo_steps.bench_train(cli.parse_args(["grpo_steps"]))


def test_a_modes_overrides_come_after_the_users(tmp_path):
    args = cli.parse_args(["grpo_steps", "--set", "threads=1", "--set", "trainer.max_steps=9"])
    command = grpo_steps.train_command(args, False, str(tmp_path), 1, ["threads=2"])
    assert command[-1] == "threads=2" and "trainer.max_steps=9" in command
    assert command.index("trainer.max_steps=9") > command.index("trainer.max_steps=6")


def test_a_subcommand_is_its_modules_name_and_an_old_name_still_answers(capsys):
    assert set(cli.BENCHMARKS) <= {path.stem for path in Path(cli.__file__).parent.glob("*.py")}
    old, new = (cli.parse_args([name, "--steps", "3"]) for name in ("train", "grpo_steps"))
    assert old == new
    assert "bench train is now bench grpo_steps" in capsys.readouterr().err
