"""What a pairwise judge is: `compare(a_png, b_png) -> "A" | "B" | "tie" | None`.

    >>> judge.compare(canvas.png, reference.png)
    'A'

"A" and "B" name the first and second image as presented; None means the judge could not
answer (a server down, persistent nonsense): no verdict, never a fake loss. `concurrency` says
how many comparisons may run at once (threads); a judge must be safe to call from that many.
"""

from __future__ import annotations

from typing import Literal, Protocol

Verdict = Literal["A", "B", "tie"]
VERDICTS: tuple[Verdict, ...] = ("A", "B", "tie")


class Judge(Protocol):
    concurrency: int

    def compare(self, a_png: bytes, b_png: bytes) -> Verdict | None: ...
