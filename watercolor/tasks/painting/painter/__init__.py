"""Painting's embedded tiny painter: its corpus of reply kinds, its build, its revising variant.

    python -m watercolor.tasks.painting.painter.tiny          # build (or find) the default painter
    python -m watercolor.tasks.painting.painter.kinds         # what each reward set pays each kind
    python -m watercolor.tasks.painting.painter.tiny_revise   # the revising painter

Modules: `corpus` (the reply kinds and their mixture), `subjects`, `motifs` and `sketches` (the
p5.brush sketches the kinds are written from), `tiny` (the build config and cache name; the build
itself is every task's, `watercolor.policy.builder`), `kinds` (the kinds table), and the revising
painter's `revision_corpus` and `tiny_revise` with its shipped records (`revision_records/`).
conf/model/tiny*.yaml name them.
"""
