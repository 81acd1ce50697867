"""Replies of a model to held-out prompts, sampled as GRPO samples (the trainer group's settings,
the task's system prompt): into /tmp/replies.json, and how many of each prompt's 8 are distinct
(whether a render cache keyed by reply would save work: a run renders with one seed).

    python experiments/2026-12-01_step_cost/probe_sample_replies.py outputs/cache/tiny-<hash> \
        [NUM_PROMPTS [SEED]]      # section 5: 10 0 for the distinct counts, 3 1 for the renders
"""

import collections
import json
import sys
from pathlib import Path

from hydra.utils import instantiate

from watercolor.config import compose_train
from watercolor.evaluation.held_out import generate_samples, training_sampling
from watercolor.policy.loading import load_policy

num_prompts = int(sys.argv[2]) if len(sys.argv) > 2 else 3
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
cfg = compose_train([])
model, tokenizer = load_policy(sys.argv[1])
prompts = instantiate(cfg.task.eval_prompts)[:num_prompts]
generation, template_kwargs = training_sampling(cfg)
samples = generate_samples(
    model,
    tokenizer,
    prompts,
    samples=8,
    seed=seed,
    generation=generation,
    chat_template_kwargs=template_kwargs,
)
Path("/tmp/replies.json").write_text(json.dumps([s.reply for s in samples]))
groups = collections.defaultdict(set)
for s in samples:
    groups[s.prompt_index].add(s.reply)
print("distinct replies per group of 8:", [len(g) for g in groups.values()])
