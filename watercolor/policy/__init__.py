"""Models: every task's tiny-painter builder (`builder`) and model loading (hub ids, LoRA). The
tiny models of the real recipes' architectures are painting's painters
(`watercolor.tasks.painting.painter.tiny_qwen35`: trained on its corpus)."""
