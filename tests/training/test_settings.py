"""The numbers a run or an evaluation is refused for before anything loads
(watercolor/training/settings.py, watercolor/evaluation/eval_settings.py): each listed setting is
one the composed configs hold, and a value below what works is refused in one sentence naming it."""

from __future__ import annotations

from dataclasses import fields

import pytest
from omegaconf import OmegaConf
from trl import GRPOConfig

from watercolor.config import compose_config, compose_train
from watercolor.evaluation import eval_settings as evaluation
from watercolor.training import settings as training

# key -> a value below what works, one for each entry of the training tables
TOO_LOW = {key: least - 1 for key, (least, _) in training.COUNTS.items()}
TOO_LOW |= dict.fromkeys(training.AMOUNTS, 0)
ABSENT = object()


def held(key: str, *configs) -> bool:
    """Whether one of `configs` holds `key` (null counts: a library's default)."""
    return any(OmegaConf.select(cfg, key, default=ABSENT) is not ABSENT for cfg in configs)


def test_every_listed_setting_is_one_a_config_holds():
    # a misspelt key would be passed over as absent, and the table would check nothing
    trl_fields = {f"trainer.{f.name}" for f in fields(GRPOConfig)}  # null ones too
    train = compose_train(), compose_train(["renderer=remote"])
    listed = set(training.COUNTS) | set(training.AMOUNTS)
    assert {key for key in listed if not held(key, *train)} <= trl_fields
    evaluate = compose_config("evaluate"), compose_config("evaluate", ["renderer=remote"])
    assert [
        key for key in (*evaluation.COUNTS, *evaluation.AMOUNTS) if not held(key, *evaluate)
    ] == []


@pytest.mark.parametrize(("key", "value"), TOO_LOW.items(), ids=TOO_LOW)
def test_a_value_below_what_works_is_refused_naming_the_setting(key, value):
    with pytest.raises(ValueError, match=rf"^{key} must be .*, got {value}"):
        training.check_settings(compose_train([f"++{key}={value}"]), "fine_grained")


def test_a_full_epoch_is_refused_with_what_minus_one_means_to_trl():
    with pytest.raises(ValueError, match="-1 is TRL's 'one full epoch"):
        training.check_settings(compose_train(["trainer.max_steps=-1"]), "fine_grained")


@pytest.mark.parametrize("value", ["ten", 2.5, True])
def test_a_count_that_is_not_a_whole_number_is_refused(value):
    with pytest.raises(ValueError, match="num_generations must be a whole number >= 2"):
        training.check_settings(compose_train([f"trainer.num_generations={value}"]), "fine_grained")


def test_the_defaults_and_a_ratio_of_steps_pass():
    training.check_settings(compose_train(), "fine_grained")
    training.check_settings(compose_train(["trainer.save_steps=0.25"]), "fine_grained")
    evaluation.check_settings(compose_config("evaluate"))


def test_the_yardsticks_sets_must_be_the_task_s_and_known():
    with pytest.raises(ValueError, match="'nope', not a reward set"):
        training.check_settings(compose_train(["yardsticks.cross_rewards=[nope]"]), "fine_grained")
    with pytest.raises(ValueError, match="scores the 'svg' task"):
        training.check_settings(
            compose_train(["yardsticks.cross_rewards=[svg_fine]"]), "fine_grained"
        )
    training.check_settings(compose_train(["yardsticks.cross_rewards=[coarse]"]), "fine_grained")


def test_a_set_reading_a_second_paper_is_refused_over_a_remote_renderer():
    # the remote renderer sends back no twin: every painted reply would have no verdict
    with pytest.raises(ValueError, match="renderer=local"):
        training.check_settings(
            compose_train(["reward=show_through", "renderer=remote"]), "show_through"
        )
    training.check_settings(
        compose_train(["reward=fine_grained", "renderer=remote"]), "fine_grained"
    )
