"""`watercolor.config`: composing the project's configs outside a Hydra app, and what a command
line that does not compose is told (issue 55: the closest option, the job of a sweep)."""

from __future__ import annotations

import pytest
from hydra.errors import MissingConfigException

from watercolor import config, score, usage


def test_a_misspelt_group_option_is_answered_with_the_closest():
    with pytest.raises(MissingConfigException, match="did you mean reward=fine_grained?"):
        config.compose_config("train", ["reward=fine_graned"])
    with pytest.raises(MissingConfigException) as nothing_close:
        config.compose_config("train", ["reward=zzzzzz"])
    assert "did you mean" not in str(nothing_close.value)  # only a close one is offered


def test_a_sweeps_error_names_its_job():
    with pytest.raises(ValueError, match=r"^job 1 of 2 \(reward=fine_graned\): .*did you mean"):
        config.check_runs("train", ["reward=coarse,fine_graned"], multirun=True)

    def refuse_gated(cfg):
        if cfg.hydra.runtime.choices.reward == "gated":
            raise ValueError("not this one")

    with pytest.raises(ValueError, match=r"^job 2 of 3 \(reward=gated\): not this one$"):
        config.check_runs("train", ["reward=coarse,washes,gated"], refuse_gated, multirun=True)
    with pytest.raises(ValueError, match="^not this one$"):  # one run: no job to name
        config.check_runs("train", ["reward=gated"], refuse_gated)


def test_an_unknown_name_is_answered_with_the_closest_known_one():
    known = config.reward_set_names()
    said = config.unknown("reward set", "gatd", known)
    assert said.startswith("unknown reward set 'gatd' (did you mean 'gated'?); choose from [")
    assert "did you mean" not in config.unknown("reward set", "zzzzzz", known)
    said = config.unknown("reward sets", ["gatd", "zzzzzz", "washs"], known)
    assert said.startswith("unknown reward sets ['gatd', 'zzzzzz', 'washs'] (did you mean 'gated'")
    assert "'gated' or 'washes'?); choose from [" in said
    with pytest.raises(ValueError, match="did you mean 'washes'"):
        config.reward_set("washs")


def test_another_tasks_set_is_answered_with_the_override_to_add(tmp_path, capsys):
    with pytest.raises(ValueError, match="add task=svg for that task"):
        config.check_reward_task("svg_fine", "svg", "painting")
    # score takes its overrides after --set: the override as that command takes it
    (tmp_path / "x.svg").write_text("<svg/>")
    assert score.main([str(tmp_path / "x.svg"), "--reward", "svg_fine"]) == 2
    assert "add --set task=svg for that task" in capsys.readouterr().err


def test_a_sweeps_command_line_error_names_its_job(capsys):
    with pytest.raises(SystemExit):
        usage.check_overrides("train", ["--multirun", "reward=coarse,fine_graned"])
    assert capsys.readouterr().err.startswith("error: job 1 of 2 (reward=fine_graned): ")
