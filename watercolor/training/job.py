"""The parts of one GRPO job that `python -m watercolor.train`'s recipe (`main`) puts together:
the dataset, the policy, the renderer and scorer, the rollout route (plain, overlapped, revision
or tool episodes), the callbacks and TRL's `GRPOConfig`. The checks that refuse a run before any
model is loaded are `watercolor.training.settings`'s.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from datasets import Dataset
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf
from transformers import PreTrainedTokenizerBase, ProcessorMixin, TrainerCallback
from trl import GRPOConfig, GRPOTrainer

from watercolor.analysis.provenance import commit, config_hash, weights_fingerprint
from watercolor.config import model_source
from watercolor.policy.loading import load_policy, lora_config
from watercolor.render.pool import RenderConfig
from watercolor.render.renderers import LocalRenderer
from watercolor.rewards.reward_set import RewardSet
from watercolor.rewards.trl_adapter import Renderer, RolloutScorer
from watercolor.tasks import Task, episode_config
from watercolor.training.mlflow_callback import RolloutLogger
from watercolor.training.overoptimisation import OverOptimisationAlarm
from watercolor.training.revision import RevisionRollout
from watercolor.training.rollout import GenerationClock, OverlappedRollout
from watercolor.training.step_cpu import RewardsCpu, StepCpu
from watercolor.training.step_gpu import StepGpu
from watercolor.training.study import check_weights, job_sweep_dir, study_id
from watercolor.training.tool_env import SubmitEpisodes, load_processor
from watercolor.training.yardsticks import build_yardsticks


def build_dataset(task: Task, split: str = "train") -> Dataset:
    """The task's prompts as a TRL conversational dataset (one `prompt` column)."""
    return Dataset.from_list([{"prompt": task.conversation(p)} for p in task.prompts(split)])


def build_policy(model: DictConfig):
    """(model, tokenizer, peft_config): builds the tiny default on first use, or loads a hub
    id / path; `model.lora` becomes the LoraConfig TRL attaches (GRPOTrainer's peft_config)."""
    policy, tokenizer = load_policy(model_source(model), dtype=model.dtype)
    lora = lora_config(OmegaConf.to_container(model.lora)) if model.lora else None
    return policy, tokenizer, lora


def build_renderer(
    config: DictConfig, task: DictConfig, rewards: Sequence[RewardSet] = ()
) -> Renderer:
    """A local warm Chromium pool of the task's harness running its episode (`task` is the
    task's config; `config` the renderer's, a RenderConfig), or a remote renderer as `config`
    gives it, told the episode its servers must run (`RemoteRenderer`). The episode paints as
    `rewards` read it (`watercolor.tasks.episode_config`: a second paper for opacity)."""
    built = instantiate(config)
    episode = episode_config(task, rewards)
    if isinstance(built, RenderConfig):
        return LocalRenderer(built, instantiate(episode), instantiate(task.harness))
    # OpenEnv's client (and the server and gradio its package imports) only for renderer=remote:
    # instantiating that renderer imported it already; every other run is spared the import.
    from watercolor.render.fleet import RemoteRenderer

    if isinstance(built, RemoteRenderer):
        built.episode = episode
    return built


def run_tags(cfg: DictConfig, weights: str = "") -> dict[str, str]:
    """The job's group choices, seed and overrides, for filtering runs in MLflow; its commit,
    config hash and the fingerprint of the `weights` it starts from
    (`watercolor.analysis.provenance`);
    its study (`watercolor.training.study.study_id`)."""
    hydra_cfg = HydraConfig.get()
    choices = {k: str(v) for k, v in hydra_cfg.runtime.choices.items() if "hydra/" not in k}
    overrides = " ".join(hydra_cfg.overrides.task) or "(none)"
    sweep = hydra_cfg.mode == RunMode.MULTIRUN  # a single run belongs to no study
    sweep_dir, records = (job_sweep_dir(hydra_cfg), cfg.study.records) if sweep else (None, None)
    return (
        choices
        | {
            "seed": str(cfg.seed),
            "overrides": overrides,
            "config_hash": config_hash(OmegaConf.to_container(cfg, resolve=False)),
            "study": study_id(records, sweep_dir),
            "weights": weights,
        }
        | commit()
    )


def final_reward(trainer: GRPOTrainer, last: int = 5) -> float:
    """Mean total reward over the last `last` logged steps (what a sweeper optimises)."""
    rewards = [log["reward"] for log in trainer.state.log_history if "reward" in log]
    return statistics.fmean(rewards[-last:]) if rewards else float("nan")


def close_renderer(scorer: RolloutScorer, renderer) -> None:
    """Close the renderer (its Chromium pool) on the event loop TRL ran the rewards on."""
    loop = scorer.loop
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(renderer.close(), loop).result(timeout=60)


def build_rollout(cfg: DictConfig, scorer: RolloutScorer, task: Task):
    """The TRL `rollout_func`: revision episodes for `task.turns` > 1, painting-while-
    generating for `overlap_rendering`, else None (TRL generates on its own)."""
    if task.turns > 1:
        return RevisionRollout(scorer, task)
    return OverlappedRollout(scorer) if cfg.overlap_rendering else None


def build_submit_episodes(
    cfg: DictConfig, scorer: RolloutScorer, renderer, task: Task
) -> SubmitEpisodes | None:
    """TRL's `environment_factory` for models that take images (`model.takes_images`) when
    `task.turns` > 1: they revise through a submit tool that shows them the canvas
    (`watercolor.training.tool_env`); None for text models and single-turn episodes."""
    if task.turns < 2 or not cfg.model.get("takes_images", False):
        return None
    return SubmitEpisodes(
        scorer.reward_set, renderer, task.feedback, task.turns, task.feedback_image_px, cfg.seed
    )


def step_callbacks(
    logger: RolloutLogger,
    scorer: RolloutScorer,
    rewards_cpu: RewardsCpu | None,
    alarm: OverOptimisationAlarm | None = None,
) -> list[TrainerCallback]:
    """The trainer's callbacks, in the order their hooks run. `StepCpu` comes first: it marks a
    step's end before `RolloutLogger` writes the step's rollouts, so that writing counts as the
    step's logging (`step_cpu/logging_s`), not as its update. `alarm` watches the yardsticks for
    the run's own reward rising while the audited set's score falls."""
    clock = [StepCpu(rewards_cpu)] if rewards_cpu else []
    memory = [StepGpu()] if torch.cuda.is_available() else []  # each step's peak GPU memory
    watching = [alarm] if alarm else []
    return [*clock, *memory, logger, GenerationClock(scorer), *watching]


@dataclass
class Inputs:
    """What a GRPOTrainer gets besides the model and the dataset: the tokenizer (or a
    processor), the reward functions and weights, the rollout, the environment factory and the
    callbacks, with the renderer and scorer that must be closed after training."""

    tokenizer: PreTrainedTokenizerBase | ProcessorMixin  # a processor for models that take images
    renderer: Renderer
    scorer: RolloutScorer
    callbacks: list[TrainerCallback]
    reward_funcs: list[Callable[..., Awaitable[list[float | None]]]]  # empty: the episodes score
    reward_weights: list[float] | None
    rollout: RevisionRollout | OverlappedRollout | None  # None: TRL generates on its own
    episodes: SubmitEpisodes | None
    trainer_kwargs: dict[str, Any]  # GRPOConfig's arguments from conf/trainer

    def close(self) -> None:
        close_renderer(self.scorer, self.renderer)
        if self.episodes:
            self.episodes.close()


def build_inputs(
    cfg: DictConfig, task: Task, tokenizer: PreTrainedTokenizerBase, rewards: RewardSet
) -> Inputs:
    """The renderer, the scorer over it (`rewards`, the run's reward set), the callbacks and the
    way the group is generated: TRL itself, revision episodes or overlap_rendering (hf sampler
    only), or, for models that take images revising, TRL's tool loop (the environment owns the
    reward)."""
    renderer = build_renderer(cfg.renderer, cfg.task, [rewards])
    logger = RolloutLogger(every=cfg.tracking.log_canvases_every, suffix=task.suffix)
    trainer_kwargs = OmegaConf.to_container(cfg.trainer, resolve=True)
    rewards_cpu = RewardsCpu() if cfg.tracking.cpu_split else None
    yardsticks = build_yardsticks(
        instantiate(cfg.yardsticks), task, rewards, renderer, own=own_reward(), seed=cfg.seed
    )
    scorer = RolloutScorer(
        rewards,
        renderer,
        num_generations=trainer_kwargs["num_generations"],
        seed=cfg.seed,
        on_batch=logger.record,
        cpu=rewards_cpu,
        yardsticks=yardsticks,
    )
    alarm = (
        OverOptimisationAlarm(task.audited_reward, own_set=own_reward() or "")
        if yardsticks
        else None
    )
    callbacks = step_callbacks(logger, scorer, rewards_cpu, alarm)
    reward_funcs, reward_weights = scorer.reward_functions()
    rollout = build_rollout(cfg, scorer, task)
    if episodes := build_submit_episodes(cfg, scorer, renderer, task):
        tokenizer = load_processor(model_source(cfg.model))
        reward_funcs, reward_weights, rollout = [], None, None
        trainer_kwargs.setdefault("max_tool_calling_iterations", task.turns)  # then no more
    return Inputs(
        tokenizer=tokenizer,
        renderer=renderer,
        scorer=scorer,
        callbacks=callbacks,
        reward_funcs=reward_funcs,
        reward_weights=reward_weights,
        rollout=rollout,
        episodes=episodes,
        trainer_kwargs=trainer_kwargs,
    )


def own_reward() -> str | None:
    """The run's reward set's name (its `reward` group option); None outside a Hydra job."""
    if not HydraConfig.initialized():
        return None
    return HydraConfig.get().runtime.choices.get("reward")


def grpo_args(cfg: DictConfig, inputs: Inputs, run_dir: Path) -> GRPOConfig:
    return GRPOConfig(
        **inputs.trainer_kwargs,
        output_dir=str(run_dir),
        seed=cfg.seed,
        reward_weights=inputs.reward_weights,
        # RolloutLogger logs the run (watercolor/training/mlflow_callback.py says why not
        # report_to);
        # "mlflow" here only lets TRL log its profiling blocks into the active run.
        report_to=["mlflow"] if cfg.tracking.trl_profiling else "none",
    )


def starting_weights(cfg: DictConfig, model) -> str:
    """The fingerprint of the weights the run starts from; a study's job refuses other weights
    than its study's (`watercolor.training.study.check_weights`)."""
    weights = weights_fingerprint(model.name_or_path)  # the directory it was loaded from
    if HydraConfig.get().mode == RunMode.MULTIRUN:  # a study's parts start from one model
        check_weights(cfg.study, weights)
    return weights
