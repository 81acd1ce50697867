"""Models, whatever the task: loading one (`loading`: hub ids, local paths, LoRA) and the steps
that build a tiny painter (`builder`: tokenizer, model, supervised warm start, cache).

A task's own painter (its corpus, its build config, the `ensure_*` function conf/model/*.yaml
names) lives with its task: `watercolor.tasks.painting.painter` (the default tiny painter, its
revising variant, the small models of the real recipes' architectures) and
`watercolor.tasks.svg.painter`."""
