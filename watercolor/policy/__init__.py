"""The policy: the embedded tiny painter (corpus, build) and model loading (hub ids, LoRA)."""
