"""Generation cost of a policy: 3 GRPO groups (8 replies each) to held-out prompts at the training
sampler's settings, with THREADS torch threads: wall and CPU (this process) per group, reply
tokens, and wall per decode step (the longest reply sets the number of steps).

    python experiments/2026-12-01_step_cost/probe_generation.py outputs/cache/tiny-<hash> THREADS
"""

import resource
import sys
import time

import torch
from hydra.utils import instantiate

from watercolor.config import compose_train
from watercolor.evaluation.held_out import generate_samples, training_sampling
from watercolor.policy.loading import load_policy

torch.set_num_threads(int(sys.argv[2]))
cfg = compose_train([])
model, tokenizer = load_policy(sys.argv[1])
prompts = instantiate(cfg.task.eval_prompts)[:3]
sampler, _ = training_sampling(cfg)  # the tiny painter: no chat template settings
generate_samples(model, tokenizer, prompts[:1], samples=8, seed=0, generation=sampler)  # warm-up
before, started = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
samples = generate_samples(model, tokenizer, prompts, samples=8, seed=1, generation=sampler)
after, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - started
cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
tokens = [len(tokenizer(s.reply)["input_ids"]) for s in samples]
groups = len(prompts)
print(
    f"threads {sys.argv[2]}: per group of 8 wall {wall / groups:.2f} s, CPU {cpu / groups:.2f} "
    f"core-s; reply tokens mean {sum(tokens) / len(tokens):.0f}, max {max(tokens)}; "
    f"~{1000 * wall / groups / max(tokens):.1f} ms per decode step"
)
