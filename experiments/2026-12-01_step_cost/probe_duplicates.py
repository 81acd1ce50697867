"""How many of 8 replies to a prompt are distinct (10 held-out prompts, the training sampler's
settings): whether a render cache keyed by reply (a run renders with one seed) would save work.

    python experiments/2026-12-01_step_cost/probe_duplicates.py outputs/cache/tiny-<hash>
"""

import collections
import sys

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
prompts = instantiate(cfg.task.eval_prompts)[:10]
samples = generate_samples(model, tokenizer, prompts, samples=8, seed=0, generation=generation)
groups = collections.defaultdict(set)
for s in samples:
    groups[s.prompt_index].add(s.reply)
print("distinct replies per group of 8:", [len(g) for g in groups.values()])
