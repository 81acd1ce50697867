"""What a task gives the reward audit (`python -m watercolor.audit`): its table of sketches and
matched pairs, as `Task.audit(pairs=N)` builds it.

    >>> table = task.audit(pairs=10)     # conf/task/<name>.yaml's `audit`
    >>> [s.name for s in table.sketches if s.kind == CHEAT][:2]
    ['blank', 'blank_brush']
    >>> table.pairs[0].kind, table.reference
    ('opaque', 'translucent')

- A sketch is a reply with a prompt, `genuine` (a painting the task wants) or a `cheat` (what a
  policy could learn instead). A task keeps them as files, one a sketch, whose first two
  comment lines say what it is (`read_sketch`): line 1 the prompt it answers, line 2
  `Genuine: ...` or `Cheat: ...`. A new cheat is a new file.
- A pair is one composition painted twice: the `reference` reply and a `twin` that differs in
  one property only (painting's opaque twin: every fill at opacity 255). Each pair kind is a
  function `twin(reply) -> reply` named in the task's config, so a new kind is a function and a
  line of config (`twin_pairs`). The audit asks that the reference outscores its twin.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

GENUINE, CHEAT = "genuine", "cheat"
# A header line's text without its comment markers (`//`, `#`, `<!--` ... `-->`).
_HEADER = re.compile(r"^\s*(?://|#|<!--)?\s*(.*?)\s*(?:-->)?\s*$")
# Line 2: the kind (a note may follow it, "Genuine (faint): ..."), then what the sketch is.
_KIND = re.compile(r"(genuine|cheat)\b[^:]*:\s*(.*)", re.IGNORECASE)


@dataclass(frozen=True)
class AuditSketch:
    """One row of the table: a reply to `prompt`, `kind` GENUINE or CHEAT, `about` what it is."""

    name: str
    kind: str
    prompt: str
    reply: str
    about: str = ""


@dataclass(frozen=True)
class AuditPair:
    """Pair `index` of kind `kind`: the `reference` reply and its `twin`, both for `prompt`."""

    kind: str
    index: int
    prompt: str
    reference: str
    twin: str


@dataclass(frozen=True)
class AuditTable:
    """A task's audit table; `reference` names what each pair's reference reply is."""

    sketches: Sequence[AuditSketch]
    pairs: Sequence[AuditPair] = ()
    reference: str = "reference"
    about: Mapping[str, str] = field(default_factory=dict)  # pair kind -> what its twin is


def read_sketch(path: Path) -> AuditSketch:
    """A sketch file: line 1 `prompt: <the prompt>`, line 2 `Genuine: ...` or `Cheat: ...`
    (each in the file's own comment syntax), the whole file the reply."""
    source = path.read_text("utf-8")
    lines = [_HEADER.match(line).group(1) for line in source.splitlines()[:2]]
    if len(lines) < 2 or not lines[0].startswith("prompt:"):
        raise ValueError(f"{path}: line 1 must name the prompt (`prompt: ...`)")
    if not (kind := _KIND.match(lines[1])):
        raise ValueError(f"{path}: line 2 must start `Genuine:` or `Cheat:`, not {lines[1]!r}")
    prompt = lines[0].removeprefix("prompt:").strip()
    return AuditSketch(path.stem, kind.group(1).lower(), prompt, source, kind.group(2))


def read_sketches(folder: Path, suffix: str) -> list[AuditSketch]:
    """Every `*<suffix>` file of `folder` (`read_sketch`), by name."""
    return [read_sketch(path) for path in sorted(folder.glob(f"*{suffix}"))]


def twin_pairs(
    compositions: Sequence[tuple[str, str]], twins: Mapping[str, Callable[[str], str]]
) -> list[AuditPair]:
    """For each (prompt, reference reply) and each kind of `twins`, the pair it makes."""
    return [
        AuditPair(kind, index, prompt, reference, twin(reference))
        for kind, twin in twins.items()
        for index, (prompt, reference) in enumerate(compositions)
    ]


def describe(twins: Mapping[str, Callable[[str], str]]) -> dict[str, str]:
    """Each twin function's docstring's first line (a `functools.partial`'s function's)."""
    docs = {kind: getattr(twin, "func", twin).__doc__ or "" for kind, twin in twins.items()}
    return {kind: doc.strip().split("\n")[0] for kind, doc in docs.items()}
