"""24 replies of a model (3 held-out prompts x 8, the training sampler's settings) into
/tmp/replies.json.

    python experiments/2026-12-01_step_cost/probe_sample_replies.py outputs/cache/tiny-<hash>
"""

import json
import sys
from pathlib import Path

from hydra.utils import instantiate

from watercolor.config import compose_train
from watercolor.evaluate import generate_samples
from watercolor.policy.loading import load_policy

cfg = compose_train([])
model, tokenizer = load_policy(sys.argv[1])
trainer = cfg.trainer
generation = {
    "max_new_tokens": trainer.max_completion_length,
    "temperature": trainer.temperature,
    "top_p": trainer.get("top_p", 1.0),
    "top_k": trainer.get("top_k", 0),
}
prompts = instantiate(cfg.task.eval_prompts)[:3]
samples = generate_samples(model, tokenizer, prompts, samples=8, seed=1, generation=generation)
Path("/tmp/replies.json").write_text(json.dumps([s.reply for s in samples]))
