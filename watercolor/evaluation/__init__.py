"""Evaluation: a model's replies to held-out prompts, painted and scored by every reward set.

sampling (generate, paint, score: the rows `python -m watercolor.evaluate` writes), revisions
(the revision arm's drafts, feedback and revisions) and settings (what an evaluation is refused
for, checked before the rest is imported). Above policy and analysis; below training.
"""
