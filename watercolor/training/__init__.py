"""Training: the GRPO job around TRL's `GRPOTrainer`, and the study that runs many of them.

rollout (paint each reply as it is generated), revision and tool_env (multi-turn episodes),
mlflow_callback, step_cpu and step_gpu (TRL callbacks), study and ray_check (Hydra callbacks of a
sweep), settings (what a run is refused for, checked before the rest is imported).
`python -m watercolor.train` composes them.
"""
