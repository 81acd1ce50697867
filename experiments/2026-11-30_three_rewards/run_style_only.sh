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
