"""watercolor: reinforcement learning for code-writing models with a real environment in the loop.

A model writes p5.js + p5.brush JavaScript, a headless Chromium runs it, the canvas is scored
as a watercolour, and GRPO (TRL) improves the model. See README.md.
"""

import os

__version__ = "0.1.0"

# scripts/mkl_as_on_intel.sh preloads a library into the process it runs (a painter's build), not
# into what that process starts in turn (Chromium, node, workers): take it out of the environment
# they inherit. The process itself keeps it; the loader read LD_PRELOAD when the process began.
if preloaded := os.environ.pop("WATERCOLOR_PRELOADED", None):
    kept = [p for p in os.environ.get("LD_PRELOAD", "").split(":") if p and p != preloaded]
    if kept:
        os.environ["LD_PRELOAD"] = ":".join(kept)
    else:
        os.environ.pop("LD_PRELOAD", None)
