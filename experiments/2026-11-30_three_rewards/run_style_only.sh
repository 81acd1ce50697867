#!/usr/bin/env bash
# Follow-up (why the sets did not separate): the same recipe on a tiny model warm-started on a
# corpus with only the two styles the seed's claim is about -- layered translucent washes and
# flat opaque fills, half each, no failing kinds -- so that execution is not the main thing
# left to learn. One seed, coarse vs fine_grained, 30 steps; MLflow experiment
# three_rewards_style. Run from the repository root after `bash scripts/setup.sh`.
set -euo pipefail
.venv/bin/python -m watercolor.train experiment=three_rewards threads=1 seed=0 \
  reward=coarse,fine_grained trainer.max_steps=30 tracking.experiment=three_rewards_style \
  '+model.name_or_path.config.mixture={layered:0.5,flat:0.5,stroke_only:0,plain_p5:0,broken:0}' \
  hydra.sweep.dir=outputs/multirun/three_rewards_style
# Evaluate both on the study's held-out prompts (as evaluate.sh does), in their own experiment.
for run in outputs/multirun/three_rewards_style/*_*/; do
  run=${run%/}
  .venv/bin/python -m watercolor.evaluate tracking.experiment=three_rewards_style num_prompts=12 \
    samples=4 'rewards=[coarse,fine_grained,gated]' checkpoint="$run" \
    hydra.run.dir="outputs/evaluate/three_rewards_style/style_seed0_$(basename "$run")"
done
# ... and the style-only warm start itself, untrained (the baseline row).
.venv/bin/python -m watercolor.evaluate tracking.experiment=three_rewards_style num_prompts=12 \
  samples=4 'rewards=[coarse,fine_grained,gated]' \
  '+model.name_or_path.config.mixture={layered:0.5,flat:0.5,stroke_only:0,plain_p5:0,broken:0}' \
  hydra.run.dir=outputs/evaluate/three_rewards_style/untrained
