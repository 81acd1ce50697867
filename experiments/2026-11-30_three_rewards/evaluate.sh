#!/usr/bin/env bash
# Evaluate the untrained tiny model and every finished run of the study on the same held-out
# prompts (12 prompts x 4 samples, seeded), scoring each canvas with every offline reward set;
# each evaluation is an MLflow run tagged kind=evaluate in experiment three_rewards (with
# source_run_id = the training run), which `python -m watercolor.compare` turns into the
# trained-with x scored-by matrix. Usage: evaluate.sh [untrained] [RUN_DIR ...]
set -euo pipefail
py=.venv/bin/python
evaluate="$py -m watercolor.evaluate tracking.experiment=three_rewards num_prompts=12 samples=4"
evaluate="$evaluate rewards=[coarse,fine_grained,gated]"
for what in "$@"; do
  if [ "$what" = untrained ]; then
    $evaluate hydra.run.dir=outputs/evaluate/three_rewards/untrained
  else
    $evaluate checkpoint="$what" hydra.run.dir="outputs/evaluate/three_rewards/$(basename "$(dirname "$what")")_$(basename "$what")"
  fi
done
