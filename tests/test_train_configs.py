"""Every option of every config group, and every experiment, composes with conf/train.yaml.

Real-model configs are composed and their trainer settings checked, not loaded (no weights here).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from dataclasses import fields

import pytest
from hydra import compose, initialize_config_dir
from hydra.utils import get_object, instantiate
from omegaconf import OmegaConf
from trl import GRPOConfig

from watercolor.config import CONF_DIR, compose_config, compose_train
from watercolor.tasks.painting.painter.tiny import SMOKE
from watercolor.training.settings import check_settings

GROUPS = ["task", "model", "reward", "trainer", "sampler", "renderer", "experiment", "debug"]
OPTIONS = [
    (group, path.stem) for group in GROUPS for path in sorted((CONF_DIR / group).glob("*.yaml"))
]
EXPERIMENTS = [option for group, option in OPTIONS if group == "experiment"]
# Where a conf value deliberately differs from its dataclass's default (the YAML says why).
DELIBERATE = {
    ("watercolor.render.pool.RenderConfig", "pixel_density"),
    # optional (None: a task without an audit table, so a user's own task config needs none);
    # the shipped tasks give theirs
    ("watercolor.tasks.Task", "audit"),
}
# A renderer option's own setting, parting from RenderConfig's default (its YAML says why).
RENDERERS_THAT_PART = {("rich", "time_limit_s"), ("gpu", "webgl")}
# The dearest watercolour a frontier model wrote (issue 21: 4-41 CPU-s alone, training density).
DEAREST_FRONTIER_SKETCH_CPU_S = 41


def compose_with_hydra(*overrides: str):
    """conf/train.yaml with its `hydra` node (sweeper params, callbacks) kept."""
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("train", list(overrides), return_hydra_config=True)


def test_every_group_has_options():
    found = {group for group, _ in OPTIONS}
    assert found == set(GROUPS)


@pytest.mark.parametrize(("group", "option"), OPTIONS, ids=[f"{g}={o}" for g, o in OPTIONS])
def test_option_composes(group, option):
    cfg = compose_with_hydra(f"{group}={option}")
    if group == "reward":  # with the task the set is made for (the default task refuses svg's)
        cfg = compose_with_hydra(f"{group}={option}", f"task={cfg.reward.task}")
    trainer = OmegaConf.to_container(cfg.trainer, resolve=True)
    assert set(trainer) <= {f.name for f in fields(GRPOConfig)}
    if not trainer.get("bf16"):  # GPU-only settings cannot be validated on a CPU machine
        GRPOConfig(output_dir="/tmp/watercolor-compose-check", **trainer)
    instantiate(cfg.reward)
    instantiate(cfg.renderer)
    instantiate(cfg.task.episode)
    check_settings(cfg, cfg.hydra.runtime.choices.reward)


def test_anchor_recipe_is_in_the_big_model_config():
    trainer = compose_train(["model=qwen3_5_35b_a3b"]).trainer
    assert trainer.learning_rate == 5e-5 and trainer.lr_scheduler_type == "constant_with_warmup"
    assert trainer.scale_rewards == "none" and trainer.num_generations == 8
    assert trainer.max_completion_length == 8192 and trainer.bf16
    assert (trainer.top_p, trainer.top_k) == (0.95, 20)
    assert trainer.chat_template_kwargs.enable_thinking is False


def test_real_model_recipes_give_a_render_the_time_real_watercolours_take():
    tiny = compose_train([])
    assert tiny.renderer.time_limit_s == 10.0  # the tiny painter's sketches
    for model in ("qwen3_5_35b_a3b", "qwen3_5_4b"):
        for cfg in (compose_train([f"model={model}"]),
                    compose_config("evaluate", [f"model={model}"])):  # fmt: skip
            assert cfg.renderer.time_limit_s >= DEAREST_FRONTIER_SKETCH_CPU_S
            rest = {k: v for k, v in cfg.renderer.items() if k != "time_limit_s"}
            assert rest == {k: v for k, v in tiny.renderer.items() if k != "time_limit_s"}
    # The command line still chooses: another renderer, or another limit.
    assert compose_train(["model=qwen3_5_4b", "renderer=local"]).renderer.time_limit_s == 10.0
    remote = compose_train(["model=qwen3_5_4b", "renderer=remote"]).renderer
    assert remote._target_ == "watercolor.render.fleet.RemoteRenderer"
    limit = compose_train(["model=qwen3_5_4b", "renderer.time_limit_s=90"]).renderer.time_limit_s
    assert limit == 90


def test_three_rewards_experiment_sweeps_the_three_sets():
    for experiment in ("three_rewards", "three_rewards_v2"):
        params = compose_with_hydra(f"experiment={experiment}").hydra.sweeper.params
        assert set(params.reward.split(",")) == {"coarse", "fine_grained", "gated"}
    cfg = compose_train(["experiment=three_rewards"])
    # The experiment's own settings win over train.yaml's defaults (its MLflow experiment).
    assert cfg.tracking.experiment == "three_rewards" and cfg.trainer.max_steps == 40
    assert compose_train(["experiment=three_rewards", "debug=smoke"]).trainer.max_steps == 3


def test_smoke_shrinks_the_run_and_keeps_a_named_model():
    # debug=smoke alone: the smoke model is tiny.SMOKE itself, not a copy of it.
    assert instantiate(compose_train(["debug=smoke"]).model.name_or_path.config) == SMOKE
    for overrides in (["debug=smoke", "model=qwen3_5_4b"], ["model=qwen3_5_4b", "debug=smoke"]):
        cfg = compose_train(overrides)
        assert cfg.model.name_or_path == "Qwen/Qwen3.5-4B" and cfg.model.lora.r == 16
        assert cfg.trainer.max_steps == 3 and cfg.trainer.num_generations == 4
        assert cfg.trainer.max_completion_length == 384 and cfg.trainer.bf16


def test_the_smaller_real_model_extends_the_anchor_recipe():
    big = OmegaConf.to_container(compose_train(["model=qwen3_5_35b_a3b"]).trainer)
    small = OmegaConf.to_container(compose_train(["model=qwen3_5_4b"]).trainer)
    assert {k for k in big if big[k] != small[k]} == {"max_completion_length"}
    assert small["max_completion_length"] == 4096


def dataclass_nodes(node, path: str = ""):
    """(path, target, node) of every `_target_` node in `node` that names a dataclass."""
    if isinstance(node, dict):
        target = node.get("_target_")
        located = get_object(target) if target else None
        if isinstance(located, type) and dataclasses.is_dataclass(located):
            yield path, target, node
        for key, value in node.items():
            yield from dataclass_nodes(value, f"{path}.{key}".lstrip("."))


def has_default(field: dataclasses.Field) -> bool:
    """A required field (a task's suffix, its prompts) has no default for conf to copy."""
    return (field.default, field.default_factory) != (dataclasses.MISSING, dataclasses.MISSING)


def default(field: dataclasses.Field):
    if field.default is not dataclasses.MISSING:
        return field.default
    return field.default_factory() if field.default_factory is not dataclasses.MISSING else None


DATACLASS_GROUPS = [f"{g}={o}" for g, o in OPTIONS if g in ("renderer", "task", "model")]


@pytest.mark.parametrize("option", DATACLASS_GROUPS)
def test_conf_values_of_a_dataclass_are_its_defaults_not_copies_that_part(option):
    # conf lists a dataclass's fields so each can be set from the command line; a listed value
    # that parts from the dataclass's default is a hand copy gone stale, unless it is DELIBERATE.
    cfg = OmegaConf.to_container(compose_train([option]), resolve=False)
    renderer = compose_with_hydra(option).hydra.runtime.choices.renderer
    for path, target, node in dataclass_nodes(cfg):
        defaults = {f.name: default(f) for f in fields(get_object(target)) if has_default(f)}
        for name, value in node.items():
            if name.startswith("_") or name not in defaults or (target, name) in DELIBERATE:
                continue
            if (renderer, name) in RENDERERS_THAT_PART:
                continue
            expected = defaults[name]
            same = set(value) == expected if isinstance(expected, frozenset) else value == expected
            assert same, f"{path}.{name}: conf {value!r}, {target} default {expected!r}"


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_experiment_composes_at_smoke_scale(experiment):
    # The fast tier's share of tests/test_train_smoke.py::test_every_experiment_smoke_runs.
    cfg = compose_with_hydra(f"experiment={experiment}", "debug=smoke")
    assert cfg.hydra.mode.name == "MULTIRUN" and cfg.hydra.sweeper.params
    GRPOConfig(output_dir="/tmp/watercolor-compose-check", **OmegaConf.to_container(cfg.trainer))
    smoke = f"{cfg.hydra.runtime.choices.task}_smoke"  # each task's own smoke painter
    assert cfg.trainer.max_steps == 3 and cfg.hydra.runtime.choices.model == smoke
    for node in (cfg.reward, cfg.renderer, cfg.task.episode, *cfg.hydra.callbacks.values()):
        instantiate(node)
    swept = cfg.hydra.sweeper.params.get("reward", cfg.hydra.runtime.choices.reward)
    for reward in swept.split(","):  # each job's set is made for the experiment's task
        check_settings(compose_train([f"experiment={experiment}", f"reward={reward}"]), reward)


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


def test_remote_rendering_is_told_the_episode_its_servers_must_run():
    from watercolor.env.client import RemoteRenderer
    from watercolor.training.job import build_renderer

    cfg = compose_train(["renderer=remote", "task.episode.rules.max_chars=900"])
    renderer = build_renderer(cfg.renderer, cfg.task)
    assert isinstance(renderer, RemoteRenderer)
    assert renderer.episode == OmegaConf.to_container(cfg.task.episode, resolve=True)
    assert renderer.episode["rules"]["max_chars"] == 900


def test_training_paints_the_second_paper_its_set_reads():
    from watercolor.config import reward_set
    from watercolor.render.renderers import LocalRenderer
    from watercolor.training.job import build_renderer

    cfg = compose_train(["reward=show_through"])
    rewards = reward_set("show_through")
    renderer = build_renderer(cfg.renderer, cfg.task, [rewards])
    assert isinstance(renderer, LocalRenderer)
    assert renderer.episode.keywords["second_paper"] == rewards.second_paper
    plain = build_renderer(cfg.renderer, cfg.task, [reward_set("fine_grained")])
    assert "second_paper" not in plain.episode.keywords


@pytest.mark.parametrize(
    ("task", "reward", "made_for"), [("svg", "coarse", "painting"), ("painting", "svg_fine", "svg")]
)
def test_a_reward_set_of_another_task_is_refused_before_loading(task, reward, made_for):
    cfg = compose_train([f"task={task}", f"reward={reward}"])
    message = f"reward set '{reward}' scores the '{made_for}' task, not the composed task '{task}'"
    with pytest.raises(ValueError, match=message):
        check_settings(cfg, reward)
    # deliberately, on the command line: a set that says it suits any task
    check_settings(compose_train([f"task={task}", f"reward={reward}", "reward.task=null"]), reward)


@pytest.mark.parametrize("sampler", ["vllm_colocate", "vllm_server"])
def test_overlapped_rendering_with_vllm_is_refused_not_ignored(sampler):
    # vLLM generates outside watercolor/training/rollout.py, so the switch could only be ignored.
    cfg = compose_train([f"sampler={sampler}", "overlap_rendering=true"])
    with pytest.raises(ValueError, match=r"overlap_rendering=true works only with sampler=hf"):
        check_settings(cfg, "fine_grained")
    check_settings(compose_train([f"sampler={sampler}"]), "fine_grained")
    check_settings(compose_train(["sampler=hf", "overlap_rendering=true"]), "fine_grained")
