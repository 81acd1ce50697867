"""Painting's reward-audit table (`python -m watercolor.audit reward=<set>`): sketches and pairs.

    >>> from watercolor.tasks.painting.audit import audit_table
    >>> table = audit_table(pairs=10)
    >>> len([s for s in table.sketches if s.kind == "genuine"])   # 5 written + 7 samples
    12

- Sketches: every file of `audit_sketches/` (genuine watercolours and the cheats each reward
  round met, `audit_sketches/README.md` says what each is; a new cheat is a new file there)
  and the task's seven sample watercolours (`samples/`), genuine, each with the training prompt
  it paints (`SAMPLE_PROMPTS`).
- Pairs: compositions of the translucency calibration's held-out split (`twins.
  wash_pairs`: the corpus's layered washes, fills at opacity 60-150, bleed and texture at or
  above p5.brush's defaults), the reference as written, each twin made by one function of
  conf/task/painting.yaml's `audit.twins` (`opaque`: every fill at 255; `pale`: every fill at
  255 in the colour it shows alone, the washes study's pale twin).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from watercolor.tasks.audit_table import (
    GENUINE,
    AuditSketch,
    AuditTable,
    describe,
    read_sketches,
    twin_pairs,
)
from watercolor.tasks.painting import sample_sketches
from watercolor.tasks.painting.twins import wash_pairs

SKETCHES_DIR = Path(__file__).parent / "audit_sketches"
SAMPLE_PROMPTS = {  # what each sample paints, as a training prompt (samples/README.md)
    "hibiscus": "paint a peach hibiscus in watercolour",
    "koi": "paint a coral koi fish in watercolour",
    "mountains": "paint a cobalt mountain range in watercolour",
    "pears": "paint an olive pear in watercolour",
    "sailboat": "paint a turquoise sailboat in watercolour",
    "sunset": "paint a violet sunset sky in watercolour",
    "vase": "paint a crimson tulip in watercolour",
}


def samples() -> list[AuditSketch]:
    """The task's sample watercolours as genuine sketches (`about`: their first comment line)."""
    return [
        AuditSketch(name, GENUINE, SAMPLE_PROMPTS[name], source, source.split("\n")[0][3:])
        for name, source in sample_sketches().items()
    ]


def audit_table(
    pairs: int = 10,
    seed: int = 1,
    split: str = "heldout",
    twins: Mapping[str, Callable[[str], str]] | None = None,
) -> AuditTable:
    """The samples and `audit_sketches/`, and `pairs` compositions (`wash_pairs(pairs, seed,
    split)`) each with every twin of `twins` (none: no pairs)."""
    compositions = [(prompt, reply) for prompt, reply, _ in wash_pairs(pairs, seed, split)]
    return AuditTable(
        sketches=[*samples(), *read_sketches(SKETCHES_DIR, ".js")],
        pairs=twin_pairs(compositions, twins or {}),
        reference="translucent",
        about=describe(twins or {}),
    )
