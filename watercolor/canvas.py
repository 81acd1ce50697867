"""The record every render produces, and every reward component reads.

    >>> from watercolor.canvas import Canvas, Status
    >>> c = Canvas(status=Status.VIOLATION, violations=["no_sketch"], errors=["no code found"])
    >>> c.ok, c.to_json()["status"]
    (False, 'violation')

A `Canvas` is plain data: status, pixels (RGBA, uint8, H x W x 4), the PNG they came from,
errors, gate violation codes, timings and the sketch that made it. Rewards are pure functions
of it, so a sketch is rendered once however many components read it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

import numpy as np
from PIL import Image


class Status(StrEnum):
    """How a render ended. Only `INFRA_ERROR` is "no verdict" (None for TRL)."""

    OK = "ok"  # the sketch ran and painted a canvas
    VIOLATION = "violation"  # the static gate or the blank-canvas check refused it
    ERROR = "error"  # the sketch threw (syntax error, exception in setup/draw, ...)
    TIMEOUT = "timeout"  # it ran past the time limit and was stopped
    CRASHED = "crashed"  # the page died under it (memory bound, renderer crash)
    INFRA_ERROR = "infra_error"  # our side failed (browser gone, harness broken)


@dataclass(frozen=True, eq=False)
class Canvas:
    """One rendered (or refused) sketch."""

    status: Status
    png: bytes | None = None
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    sketch: str = ""
    reply: str = ""
    seed: int = 0
    # What the renderer changed or wants known without failing the sketch (e.g. its canvas size).
    notes: list[str] = field(default_factory=list)
    # The paper(s) the sketch asked for (RGBA; painting: its `background()` colours), as the
    # harness reports them; [] when it laid down none or the harness has no paper.
    papers: list[tuple[int, ...]] = field(default_factory=list)
    # The same sketch painted again with only the paper changed (`paper` its CSS colour), for
    # reward sets that read opacity (watercolor.rewards.matting); None when not asked for.
    twin: Canvas | None = None
    twin_paper: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == Status.OK

    @property
    def infra_failure(self) -> bool:
        """True when the render says nothing about the sketch (our failure, not the model's)."""
        return self.status == Status.INFRA_ERROR

    @cached_property
    def rgba(self) -> np.ndarray | None:
        """Pixels as an (H, W, 4) uint8 array, decoded from the PNG; None when nothing painted."""
        if self.png is None:
            return None
        with Image.open(io.BytesIO(self.png)) as image:
            return np.asarray(image.convert("RGBA"), dtype=np.uint8)

    def to_json(self, png_path: str | None = None) -> dict:
        """The JSON record of DESIGN.md §5 (pixels are not included; `png` is a path or None),
        with `twin_paper` and `twin_status` where it was painted over a second paper too."""
        record = {
            "status": str(self.status),
            "errors": list(self.errors),
            "violations": list(self.violations),
            "notes": list(self.notes),
            "timings": {k: round(v, 1) for k, v in self.timings.items()},
            "png": png_path,
            "seed": self.seed,
        }
        if self.twin is not None:
            record |= {"twin_paper": self.twin_paper, "twin_status": str(self.twin.status)}
        return record
