"""The SVG task's reward-audit table (`python -m watercolor.audit task=svg reward=<set>`).

    >>> from watercolor.tasks.svg.audit import audit_table, opaque, pale
    >>> table = audit_table(pairs=10, twins={"opaque": opaque, "pale": pale})
    >>> sorted({s.name.split("-")[0] for s in table.sketches if s.kind == "cheat"})[:3]
    ['broken', 'colour_sheet', 'flat_block']

- Sketches: the warm-start corpus's kinds (`watercolor.tasks.svg.corpus`), `PER_KIND` of each
  for held-out prompts, named `<kind>-<i>`: `layered` glazes are genuine; `flat_block`,
  `flat_shapes`, `off_colour` (a layered picture in another colour), `sparse` and `broken` (one
  per gate defect) are cheats. Beside them every file of `audit_sketches/` (a new cheat is a
  new file there: its first two comment lines name the prompt and say `Genuine:` or `Cheat:`).
- Pairs: `layered` compositions of held-out prompts, the reference as written, each twin made
  by one function of conf/task/svg.yaml's `audit.twins` (`opaque`: every shape's fill-opacity
  dropped; `pale`: each shape opaque in the colour it shows alone over the sheet).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from watercolor.tasks.audit_table import (
    CHEAT,
    GENUINE,
    AuditSketch,
    AuditTable,
    describe,
    read_sketches,
    twin_pairs,
)
from watercolor.tasks.svg.corpus import DEFECTS, PAPER, broken, make_example
from watercolor.tasks.svg.prompts import prompt_colour, prompts

SKETCHES_DIR = Path(__file__).parent / "audit_sketches"
PER_KIND = {"layered": 6, "flat_block": 2, "flat_shapes": 2, "off_colour": 2, "sparse": 2}
_OPACITY = re.compile(r'\s+fill-opacity="[0-9.]+"')
_FILL = re.compile(r'fill="#([0-9a-fA-F]{6})" fill-opacity="([0-9.]+)"')


def opaque(reply: str) -> str:
    """`reply` with every shape's `fill-opacity` dropped: each fill opaque, same colour."""
    return _OPACITY.sub("", reply)


def pale(reply: str) -> str:
    """`reply` with every shape opaque, in the colour it shows alone over the sheet."""
    paper = [int(PAPER[i : i + 2], 16) for i in (1, 3, 5)]

    def mixed(match: re.Match) -> str:
        rgb = [int(match.group(1)[i : i + 2], 16) for i in (0, 2, 4)]
        alpha = float(match.group(2))
        shown = (round(p + (c - p) * alpha) for c, p in zip(rgb, paper, strict=True))
        return 'fill="#{:02x}{:02x}{:02x}"'.format(*shown)

    return _FILL.sub(mixed, reply)


def corpus_sketches(seed: int) -> list[AuditSketch]:
    """`PER_KIND` corpus examples of each kind and one `broken` per defect, held-out prompts."""
    texts = prompts("heldout")
    found = []
    for kind, count in PER_KIND.items():
        for i in range(count):
            rng = random.Random(f"audit:{seed}:{kind}:{i}")
            example = make_example(kind, rng.choice(texts), rng)
            role = GENUINE if kind == "layered" else CHEAT
            found.append(AuditSketch(f"{kind}-{i}", role, example.prompt, example.reply, kind))
    for i, defect in enumerate(DEFECTS):
        rng = random.Random(f"audit:{seed}:broken:{i}")
        prompt = rng.choice(texts)
        reply = f"```svg\n{broken(rng, prompt_colour(prompt)[1], defect)}\n```"
        found.append(AuditSketch(f"broken-{defect}", CHEAT, prompt, reply, f"broken: {defect}"))
    return found


def audit_table(
    pairs: int = 10, seed: int = 1, twins: Mapping[str, Callable[[str], str]] | None = None
) -> AuditTable:
    """The corpus's kinds and `audit_sketches/`, and `pairs` layered compositions each with
    every twin of `twins` (none: no pairs)."""
    texts = prompts("heldout")
    compositions = []
    for i in range(pairs):
        rng = random.Random(f"audit-pair:{seed}:{i}")
        example = make_example("layered", rng.choice(texts), rng)
        compositions.append((example.prompt, example.reply))
    return AuditTable(
        sketches=[*corpus_sketches(seed), *read_sketches(SKETCHES_DIR, ".svg")],
        pairs=twin_pairs(compositions, twins or {}),
        reference="layered",
        about=describe(twins or {}),
    )
