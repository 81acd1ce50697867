"""What a training step holds in GPU memory: each step's peak, logged to the active MLflow run.

    >>> callbacks = [StepGpu()] if torch.cuda.is_available() else []  # watercolor.train does
    # each step logs, on the device the model is on:
    #   step_gpu/peak_gib      the most memory tensors held during the step (generation, the
    #                          reference and policy log-probs, backward, the optimiser's step)
    #   step_gpu/reserved_gib  what PyTorch's caching allocator held at the step's end

Read from `torch.cuda.max_memory_allocated` / `memory_reserved`, reset at each step's start, so
a step's peak is its own. Nothing is logged on a machine without CUDA.
"""

from __future__ import annotations

import mlflow
import torch
from transformers import TrainerCallback

PREFIX = "step_gpu/"  # sorts beside step_cpu/ in the UI (watercolor.tracking)
GIB = 1 << 30


class StepGpu(TrainerCallback):
    """Logs each step's peak and reserved GPU memory (module docstring)."""

    def on_step_begin(self, args, state, control, **kwargs):
        torch.cuda.reset_peak_memory_stats()

    def on_step_end(self, args, state, control, **kwargs):
        metrics = {
            "peak_gib": torch.cuda.max_memory_allocated() / GIB,
            "reserved_gib": torch.cuda.memory_reserved() / GIB,
        }
        if mlflow.active_run() is not None:
            mlflow.log_metrics(
                {PREFIX + k: round(v, 3) for k, v in metrics.items()}, state.global_step
            )
