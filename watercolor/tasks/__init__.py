"""Tasks: what the model is asked to do, and what a reply must look like to be run.

    >>> from watercolor.tasks.painting import SYSTEM_PROMPT, training_prompts
    >>> training_prompts("train")[0]
    'paint a peach hibiscus in watercolour'

Each task is one package (prompts, system prompt, sketch extraction, static gate, episode).
A new task (SQL, unit tests, HTML mock-ups) is a new package next to `painting/`.
"""
