"""Performance measured side by side in one run, printed as ratios (never asserted in tests).

    python -m watercolor.bench render [--json] [--repeat 2] [--density 0.5] [--rich]
    python -m watercolor.bench score [--json]
    python -m watercolor.bench matting [--repeat 2] [--json]   # a second paper's cost
    python -m watercolor.bench train [--steps 6] [--smoke] [--jobs 2] [--set K=V ...] [--json]
    python -m watercolor.bench remote [--servers 2] [--server-workers 1] [--repeat 2] [--json]
    python -m watercolor.bench webgl --modes swiftshader,egl,vulkan [--rich]   # webgl.py
    python -m watercolor.bench gpu [--dense] [--json]   # on a CUDA machine: gpu.py

With `--json` the last line printed is one JSON object holding every figure.

One benchmark a module: render.py, score.py, matting.py, train.py, remote.py, webgl.py
(SwiftShader against ANGLE on a GPU) and gpu.py (a real recipe's generation, update and memory
on a CUDA machine); common.py holds what they share, cli.py the command line.
"""
