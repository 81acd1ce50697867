"""Where a default GRPO step's trainer CPU goes, by TRL's and torch's own functions (cProfile).

    python experiments/2026-12-02_trainer_overhead/probe_update_split.py [STEPS]

Run from the repository root. The default training config (conf/train.yaml: the tiny painter,
8 replies of up to 512 tokens, beta 0.04, one torch thread) through TRL's GRPOTrainer as
watercolor.train builds it, but with a reward that needs no browser (the reply's length), so
that only the trainer's own work is profiled. cProfile times every call with the process's CPU
clock (`time.process_time`: one thread, so the trainer's CPU); steps after the first are kept
(the first is warm-up). Prints JSON: CPU-s per step of the functions named below, and the
step's total. cProfile's own cost inflates Python-heavy parts (the decode loop most), so read
the split, not the absolute figures, against bench train's.
"""

import cProfile
import json
import pstats
import sys
import tempfile
import time

import torch
from omegaconf import OmegaConf
from transformers import TrainerCallback, set_seed
from trl import GRPOConfig, GRPOTrainer

from watercolor.config import compose_train
from watercolor.training.job import build_dataset, build_policy

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
# (label, file fragment, function name): cumulative CPU of each, per step.
FUNCTIONS = [
    ("generate_and_score (TRL: generation, reference forward, rewards, advantages)",
     "grpo_trainer.py", "_generate_and_score_completions"),
    ("  model.generate", "utils.py", "generate"),
    ("  TRL's reward call", "grpo_trainer.py", "_calculate_rewards"),
    ("compute_loss (forward with grad, loss)", "grpo_trainer.py", "compute_loss"),
    ("backward", "accelerator.py", "backward"),
    ("clip_grad_norm", "accelerator.py", "clip_grad_norm_"),
    ("optimizer.step", "accelerate/optimizer.py", "step"),
    ("Trainer.log", "transformers/trainer.py", "log"),
    ("training_step (all of a step but the optimiser)", "transformers/trainer.py", "training_step"),
]  # fmt: skip


def length_reward(completions, **kwargs):
    return [min(len(c[0]["content"]) / 2000, 1.0) for c in completions]


class Profile(TrainerCallback):
    """cProfile on from the end of the first step to the end of the last."""

    def __init__(self) -> None:
        self.profile = cProfile.Profile(time.process_time)
        self.steps = 0

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step == 1:
            self.profile.enable()
        elif state.global_step > 1:
            self.steps += 1
        if state.global_step == STEPS:
            self.profile.disable()


def main() -> None:
    cfg = compose_train(["paths.cache=outputs/cache"])  # (no Hydra app: no ${hydra:...})
    torch.set_num_threads(cfg.threads)
    set_seed(cfg.seed)
    model, tokenizer, _ = build_policy(cfg.model)
    trainer_kwargs = OmegaConf.to_container(cfg.trainer, resolve=True)
    trainer_kwargs.update(max_steps=STEPS, save_steps=10_000, disable_tqdm=True)
    profile = Profile()
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(**trainer_kwargs, output_dir=out, seed=cfg.seed, report_to="none")
        trainer = GRPOTrainer(
            model=model,
            processing_class=tokenizer,
            reward_funcs=[length_reward],
            args=args,
            train_dataset=build_dataset(cfg.task),
            callbacks=[profile],
        )
        trainer.train()
    stats = pstats.Stats(profile.profile)
    per_step = {}
    for label, fragment, name in FUNCTIONS:
        cumulative = sum(
            row[3] for (file, _, function), row in stats.stats.items()
            if function == name and fragment in file
        )  # fmt: skip
        per_step[label] = round(cumulative / profile.steps, 3)
    # The per-token log-probabilities, by caller: without gradients inside
    # _generate_and_score_completions (the reference model's forward), with them in compute_loss.
    for (file, _, function), row in stats.stats.items():
        if function == "_get_per_token_logps_and_entropies" and "grpo_trainer.py" in file:
            for (_, _, caller), (_, _, _, cumulative) in row[4].items():
                per_step[f"  per-token logps from {caller}"] = round(cumulative / profile.steps, 3)
    per_step["steps profiled"] = profile.steps
    per_step["step total (profiled CPU)"] = round(stats.total_tt / profile.steps, 3)
    print(json.dumps(per_step, indent=1))
    stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
