"""The GRPO update's arithmetic alone: one forward with gradients, its backward and one reference
forward (what a step with beta > 0 computes) on 8 rows of PROMPT + COMPLETION tokens, 1 thread.

    python experiments/2026-12-02_trainer_overhead/probe_update.py [COMPLETION_TOKENS] [REPS]

Run from the repository root. Prints JSON: CPU seconds of each part, per repetition.
"""

import json
import sys
import time

import torch
from transformers import AutoModelForCausalLM

MODEL = "outputs/cache/tiny-9a930b0f9da3"
PROMPT = 40
completion = int(sys.argv[1]) if len(sys.argv) > 1 else 300
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
torch.set_num_threads(1)
policy = AutoModelForCausalLM.from_pretrained(MODEL, dtype=torch.float32)
reference = AutoModelForCausalLM.from_pretrained(MODEL, dtype=torch.float32).eval()
ids = torch.randint(3, policy.config.vocab_size, (8, PROMPT + completion))


def logps(model, ids):
    logits = model(input_ids=ids).logits[:, PROMPT - 1 : -1]
    return torch.log_softmax(logits, -1).gather(-1, ids[:, PROMPT:, None]).squeeze(-1)


runs = []
for _ in range(reps):
    c0 = time.process_time()
    with torch.no_grad():
        ref = logps(reference, ids)
    c1 = time.process_time()
    loss = (logps(policy, ids) - ref).pow(2).mean()
    c2 = time.process_time()
    loss.backward()
    c3 = time.process_time()
    policy.zero_grad()
    runs.append(
        {
            "reference_s": round(c1 - c0, 3),
            "forward_s": round(c2 - c1, 3),
            "backward_s": round(c3 - c2, 3),
            "total_s": round(c3 - c0, 3),
        }
    )
print(json.dumps({"rows": 8, "tokens_per_row": PROMPT + completion, "runs": runs}))
