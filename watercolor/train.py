"""Train a painter with GRPO: compose the run, build its parts, train with TRL, log to MLflow.

    python -m watercolor.train                                   # tiny default, fine_grained
    python -m watercolor.train reward=gated trainer.max_steps=100
    python -m watercolor.train --multirun reward=coarse,fine_grained,gated
    python -m watercolor.train debug=smoke                       # a complete run in minutes
    python -m watercolor.train resume=true hydra.run.dir=outputs/runs/<that run>

Every part comes from a Hydra group (conf/): `task`, `model`, `reward`, `trainer`, `sampler`,
`renderer`, plus `experiment` and `debug`. The job returns the mean total reward of its last
steps, so a Hydra sweeper can optimise it.
"""

from __future__ import annotations

import sys
import warnings

from watercolor import usage
from watercolor.training.settings import check_settings

if __name__ == "__main__":  # first, before the training stack's imports (seconds of CPU):
    usage.check_overrides("train", sys.argv[1:], check_settings)  # a mistake: one line, exit 2

from pathlib import Path

import hydra
import mlflow
import torch
from hydra.core.hydra_config import HydraConfig
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf
from transformers import set_seed
from transformers.integrations import MLflowCallback
from transformers.trainer_utils import get_last_checkpoint
from trl import GRPOTrainer

from watercolor.analysis.records import arm_of
from watercolor.cores import idle_cores
from watercolor.rewards.reward_set import ComponentSetupError, RewardSet
from watercolor.tasks import build_task
from watercolor.tracking import flatten, mlflow_run, run_name
from watercolor.training.job import (
    build_dataset,
    build_inputs,
    build_policy,
    final_reward,
    grpo_args,
    run_tags,
    starting_weights,
)
from watercolor.training.study import runs_in_this_part


@hydra.main(version_base="1.3", config_path="../conf", config_name="train")
def main(cfg: DictConfig) -> float:
    choices = HydraConfig.get().runtime.choices
    refuse_bad_settings(cfg, choices.reward)
    run_dir = Path(HydraConfig.get().runtime.output_dir)
    if not runs_in_this_part(cfg.study, cfg.seed, arm_of(choices)):
        return float("nan")
    rewards = build_rewards(cfg.reward)
    torch.set_num_threads(cfg.threads or idle_cores())
    set_seed(cfg.seed)
    # TRL reads transformers' deprecated `model.is_gradient_checkpointing` each time it unwraps the
    # model to generate (trl/models/utils.py), and transformers warns every step: nothing a user
    # can act on. Drop this line when TRL reads `is_activation_checkpointing`.
    warnings.filterwarnings("ignore", "`is_gradient_checkpointing` is deprecated", FutureWarning)
    model, tokenizer, peft_config = build_policy(cfg.model)
    weights = starting_weights(cfg, model)
    task = build_task(cfg.task)
    dataset = build_dataset(task)
    inputs = build_inputs(cfg, task, tokenizer, rewards)
    args = grpo_args(cfg, inputs, run_dir)
    with tracked_run(cfg, run_tags(cfg, weights), run_dir):
        trainer = GRPOTrainer(
            model=model, processing_class=inputs.tokenizer, reward_funcs=inputs.reward_funcs,
            args=args, train_dataset=dataset, callbacks=inputs.callbacks,
            rollout_func=inputs.rollout, environment_factory=inputs.episodes,
            peft_config=peft_config,
        )  # fmt: skip
        trainer.remove_callback(MLflowCallback)  # with report_to mlflow: RolloutLogger logs rows
        try:
            checkpoint = get_last_checkpoint(str(run_dir)) if cfg.resume else None
            trainer.train(resume_from_checkpoint=checkpoint)
        finally:
            inputs.close()
        log_final_model(trainer, cfg, run_dir)
        return final_reward(trainer)


def refuse_bad_settings(cfg: DictConfig, reward: str) -> None:
    """Exit with one line on a setting no run can train with (checked before the imports too,
    but not under --config-dir)."""
    try:
        check_settings(cfg, reward)
    except ValueError as error:
        usage.fail(error)


def build_rewards(reward: DictConfig) -> RewardSet:
    """The run's reward set; a component that can score nothing exits before the model loads."""
    rewards = instantiate(reward)
    try:
        rewards.check_setup()
    except ComponentSetupError as error:
        usage.fail(error)
    return rewards


def tracked_run(cfg: DictConfig, tags: dict[str, str], run_dir: Path):
    """The job's MLflow run: the resolved config as params, `tags`, named by arm (or reward
    set), seed and start time."""
    return mlflow_run(
        cfg.tracking.uri, cfg.tracking.experiment,
        params=flatten(OmegaConf.to_container(cfg, resolve=True)), tags=tags, run_dir=run_dir,
        artifact_root=cfg.tracking.artifacts, run_name=run_name(arm_of(tags), cfg.seed),
        resume_running=cfg.resume,  # a killed job's run is still RUNNING; resume=true asks
    )  # fmt: skip


def log_final_model(trainer: GRPOTrainer, cfg: DictConfig, run_dir: Path) -> None:
    """Save the trained model into `run_dir/final` and log it and the resolved config."""
    trainer.save_model(str(run_dir / "final"))
    mlflow.log_artifacts(str(run_dir / "final"), "final_model")
    mlflow.log_text(OmegaConf.to_yaml(cfg, resolve=True), "config.yaml")


if __name__ == "__main__":
    main()
