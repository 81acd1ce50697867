"""watercolor: reinforcement learning for code-writing models with a real environment in the loop.

A model writes p5.js + p5.brush JavaScript, a headless Chromium runs it, the canvas is scored
as a watercolour, and GRPO (TRL) improves the model. See README.md.
"""

__version__ = "0.1.0"
