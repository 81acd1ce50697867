#!/usr/bin/env bash
# The three-reward study as it was run: 9 training runs (coarse, fine_grained, gated x seeds
# 0, 1, 2; 40 GRPO steps each, conf/experiment/three_rewards.yaml) in two streams side by side
# on a 2-core machine (threads=1 each; each stream has its own sweep dir), then an evaluation
# of every final model and of the untrained model on held-out prompts (evaluate.sh), then the
# comparison. Run from the repository root after `bash scripts/setup.sh`.
set -euo pipefail
py=.venv/bin/python
root=outputs/multirun/three_rewards
train="$py -m watercolor.train experiment=three_rewards threads=1"
{ $train seed=0 hydra.sweep.dir=$root/seed0 &&
  $train seed=2 reward=fine_grained,gated hydra.sweep.dir=$root/seed2_fine_grained_gated; } \
  > outputs/three_rewards_a.log 2>&1 &
{ $train seed=1 hydra.sweep.dir=$root/seed1 &&
  $train seed=2 reward=coarse hydra.sweep.dir=$root/seed2_coarse; } \
  > outputs/three_rewards_b.log 2>&1 &
wait
