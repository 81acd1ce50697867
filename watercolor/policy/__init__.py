"""Models: every task's tiny-painter builder (`builder`), model loading (hub ids, LoRA), and tiny
models of the real recipes' architectures (`tiny_qwen35`, trained on painting's corpus)."""
