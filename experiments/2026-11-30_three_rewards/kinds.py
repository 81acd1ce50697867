"""What each reward set pays for each kind of reply in the tiny painter's corpus.

Writes 6 replies of each valid-looking kind (layered washes of random quality, flat opaque
fills, stroke-only outlines, bare-p5 shapes) for held-out prompts, scores them with
`python -m watercolor.score DIR --reward R --json` (one render each, pixel density 0.5 as in
training) and prints the mean total per (kind, set). Run from the repository root:

    .venv/bin/python experiments/2026-11-30_three_rewards/kinds.py
"""

import collections
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from watercolor.tasks.painting.painter.corpus import make_example
from watercolor.tasks.painting.prompts import prompts

KINDS = ("layered", "flat", "stroke_only", "plain_p5")
SETS = ("coarse", "fine_grained", "gated")

with tempfile.TemporaryDirectory() as folder:
    held_out = prompts("heldout")
    for kind in KINDS:
        for i in range(6):
            example = make_example(kind, held_out[i], random.Random(f"{kind}{i}"))
            (Path(folder) / f"{kind}-{i}.js").write_text(example.reply)
    totals = collections.defaultdict(list)
    for name in SETS:
        done = subprocess.run(
            [sys.executable, "-m", "watercolor.score", folder, "--reward", name,
             "--pixel-density", "0.5", "--json"],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode not in (0, 1):  # 1: some sketch failed (scored), 2: usage/infra
            sys.exit(done.stderr)
        for line in done.stdout.splitlines():
            row = json.loads(line)
            totals[Path(row["file"]).stem.split("-")[0], name].append(row["reward"])

print(f"{'kind':<12}" + "".join(f"{name:>14}" for name in SETS))
for kind in KINDS:
    cells = []
    for name in SETS:
        values = totals[kind, name]
        cells.append(f"{statistics.fmean(values):.3f}±{statistics.stdev(values):.3f}")
    print(f"{kind:<12}" + "".join(f"{cell:>14}" for cell in cells))
