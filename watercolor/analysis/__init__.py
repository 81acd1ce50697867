"""Analysis: reading what runs left behind, and nothing that runs a model.

records (the MLflow store and the committed record folders), provenance, stats (bootstrap CIs),
behaviour (per-sample measures of a canvas and its code), matrix (every model under every reward
set), revision_stats, gallery, canvas_sources and compare. No module here imports torch or a
task's painter; `tests/test_layers.py` holds that.
"""
