"""Evaluation: a model's replies to held-out prompts, painted and scored by every reward set.

sampling (generate, paint, score: the rows `python -m watercolor.evaluate` writes) and revisions
(the revision arm's drafts, feedback and revisions). Above policy and analysis; below training.
"""
