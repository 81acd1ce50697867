"""Every option of every config group, and every experiment, composes with conf/train.yaml.

Real-model configs are composed and their trainer settings checked, not loaded (no weights here).
"""

from __future__ import annotations

import importlib.util
from dataclasses import fields

import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf
from trl import GRPOConfig

from watercolor.config import CONF_DIR, compose_train

GROUPS = ["task", "model", "reward", "trainer", "sampler", "renderer", "experiment", "debug"]
OPTIONS = [
    (group, path.stem) for group in GROUPS for path in sorted((CONF_DIR / group).glob("*.yaml"))
]


def test_every_group_has_options():
    found = {group for group, _ in OPTIONS}
    assert found == set(GROUPS)


@pytest.mark.parametrize(("group", "option"), OPTIONS, ids=[f"{g}={o}" for g, o in OPTIONS])
def test_option_composes(group, option):
    cfg = compose_train([f"{group}={option}"])
    trainer = OmegaConf.to_container(cfg.trainer, resolve=True)
    assert set(trainer) <= {f.name for f in fields(GRPOConfig)}
    if not trainer.get("bf16"):  # GPU-only settings cannot be validated on a CPU machine
        GRPOConfig(output_dir="/tmp/watercolor-compose-check", **trainer)
    instantiate(cfg.reward)
    instantiate(cfg.renderer)
    instantiate(cfg.task.episode)


def test_anchor_recipe_is_in_the_big_model_config():
    trainer = compose_train(["model=qwen3_5_35b_a3b"]).trainer
    assert trainer.learning_rate == 5e-5 and trainer.lr_scheduler_type == "constant_with_warmup"
    assert trainer.scale_rewards == "none" and trainer.num_generations == 8
    assert trainer.max_completion_length == 8192 and trainer.bf16
    assert (trainer.top_p, trainer.top_k) == (0.95, 20)
    assert trainer.chat_template_kwargs.enable_thinking is False


def test_three_rewards_experiment_sweeps_the_three_sets():
    cfg = compose_train(["experiment=three_rewards"])
    params = cfg.hydra.sweeper.params if "hydra" in cfg else None
    assert params is None or set(params.reward.split(",")) == {"coarse", "fine_grained", "gated"}
    # The experiment's own settings win over train.yaml's defaults (its MLflow experiment).
    assert cfg.tracking.experiment == "three_rewards" and cfg.trainer.max_steps == 40
    assert compose_train(["experiment=three_rewards", "debug=smoke"]).trainer.max_steps == 3


def test_reweighting_from_the_command_line():
    cfg = compose_train(["reward=gated", "reward.components.coverage.weight=0"])
    assert instantiate(cfg.reward).weights["coverage"] == 0
    cfg = compose_train(["reward=gated", "~reward.components.coverage"])
    assert "coverage" not in instantiate(cfg.reward).weights


@pytest.mark.parametrize("launcher", ["slurm", "local_parallel"])
def test_launcher_configs_compose(launcher):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("train", [f"hydra/launcher={launcher}"], return_hydra_config=True)
    assert "submitit_launcher" in cfg.hydra.launcher._target_


def test_launcher_configs_never_shadow_the_plugin_config_they_extend():
    # A conf/hydra/launcher/ray.yaml whose defaults say `- ray` names itself, and composing it
    # recursed until Python gave up; each of ours must extend a plugin config of another name.
    import yaml

    for path in sorted((CONF_DIR / "hydra" / "launcher").glob("*.yaml")):
        defaults = yaml.safe_load(path.read_text()).get("defaults", [])
        assert path.stem not in defaults, f"{path.name} extends itself"


@pytest.mark.skipif(
    importlib.util.find_spec("hydra_plugins.hydra_ray_launcher") is None,
    reason='hydra-ray-launcher is not installed (pip install -e ".[ray]")',
)
def test_ray_launcher_config_composes():
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("train", ["hydra/launcher=ray_cluster"], return_hydra_config=True)
    assert cfg.hydra.launcher._target_.endswith("RayLauncher")
    assert cfg.hydra.launcher.ray.init.address == "auto"
