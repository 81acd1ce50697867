"""Performance measured side by side in one run, printed as ratios (never asserted in tests).

    python -m watercolor.bench render_modes [--json] [--repeat 2] [--density 0.5] [--rich]
    python -m watercolor.bench score_cost [--json]
    python -m watercolor.bench matting_cost [--repeat 2] [--json]   # a second paper's cost
    python -m watercolor.bench grpo_steps [--steps 6] [--smoke] [--jobs 2] [--set K=V ...] [--json]
    python -m watercolor.bench remote [--servers 2] [--server-workers 1] [--repeat 2] [--json]
    python -m watercolor.bench webgl --modes swiftshader,egl,vulkan [--rich]   # webgl.py
    python -m watercolor.bench gpu [--dense] [--json]   # on a CUDA machine: gpu.py

With `--json` the last line printed is one JSON object holding every figure.

One benchmark a module, the subcommand named as it: render_modes.py, score_cost.py,
matting_cost.py, grpo_steps.py, remote.py, webgl.py (SwiftShader against ANGLE on a GPU) and
gpu.py (a real recipe's generation, update and memory on a CUDA machine); common.py holds what
they share, cli.py the command line (it still answers the old names: render, score, matting,
train).
"""
