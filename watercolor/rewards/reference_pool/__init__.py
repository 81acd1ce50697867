"""A tiered pool of reference watercolours (`love` / `ok` / `nope`) that a judge compares against.

    >>> from watercolor.rewards.reference_pool import load_pool
    >>> pool = load_pool()                                # the pool bundled with the package
    >>> sorted(pool.tiers), len(pool), len(pool.subjects)
    (['love', 'nope', 'ok'], 24, 8)
    >>> [r.name for r in pool.draw(4, seed=3)]            # half love, half ok
    ['lighthouse_love', 'moonlit_lake_love', 'lemons_ok', 'teapot_ok']
    >>> pool = load_pool("HuggingEnvs/watercolour-reference-pool")  # the published pool (hub)

A pool is a folder: `metadata.jsonl`, one JSON object per reference with at least `file` (the
image, relative to the folder), `source` (its sketch: a relative `.js` path, or the code itself),
`tier` and `subject`; plus the images and sketches it names. The same reader serves the bundled
folder, any local copy and a hub snapshot (`huggingface_hub.snapshot_download` of a dataset
repository), so the published pool loads with the same code for users with hub access.

The anchor rated 581 of 1,664 generated paintings into these tiers by hand. The bundled pool is
24 sketches written for this project (8 subjects x 3 tiers: `love` = layered translucent washes
with bleed and grain, `ok` = plain single washes, `nope` = flat opaque p5 shapes), rendered once
at 300 px by `python -m watercolor.rewards.reference_pool build` (see `build.py`) and committed,
so scoring never needs a browser for the references.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

BUNDLED = Path(__file__).parent / "data"
HUB_POOL = "HuggingEnvs/watercolour-reference-pool"
TIERS = ("love", "ok", "nope")
REQUIRED_FIELDS = ("file", "source", "tier", "subject")


@dataclass(frozen=True, eq=False)
class Reference:
    """One reference painting; its image and sketch are read on first use."""

    name: str
    tier: str
    subject: str
    image_path: Path
    source: str  # as in the metadata: a relative .js path or the code itself
    root: Path
    metadata: dict = field(default_factory=dict, repr=False)

    @cached_property
    def png(self) -> bytes:
        return self.image_path.read_bytes()

    @cached_property
    def sketch(self) -> str:
        """The JavaScript that painted it."""
        # A published pool may inline the code instead of naming a file.
        path = self.root / self.source
        return (
            path.read_text("utf-8")
            if self.source.endswith(".js") and path.is_file()
            else self.source
        )


@dataclass(frozen=True)
class ReferencePool:
    """Reference paintings by tier; `draw` picks the ones a GRPO group is judged against."""

    references: tuple[Reference, ...]
    root: Path

    def __len__(self) -> int:
        return len(self.references)

    @property
    def tiers(self) -> dict[str, list[Reference]]:
        found: dict[str, list[Reference]] = {}
        for ref in self.references:
            found.setdefault(ref.tier, []).append(ref)
        return found

    @property
    def subjects(self) -> list[str]:
        return sorted({ref.subject for ref in self.references})

    def draw(self, n: int, seed: int | str, love_share: float = 0.5) -> list[Reference]:
        """`n` references, `round(n * love_share)` from `love` and the rest from `ok`.

        The same seed always draws the same references (in the same order).
        """
        n_love = round(n * love_share)
        rng = random.Random(seed)
        return self._sample(rng, "love", n_love) + self._sample(rng, "ok", n - n_love)

    def _sample(self, rng: random.Random, tier: str, k: int) -> list[Reference]:
        candidates = sorted(self.tiers.get(tier, []), key=lambda r: r.name)
        if k > len(candidates):
            raise ValueError(f"asked for {k} {tier!r} references; the pool has {len(candidates)}")
        return rng.sample(candidates, k)


def read_pool(folder: str | Path) -> ReferencePool:
    """The pool in a local folder (see the module docstring for its layout)."""
    root = Path(folder)
    lines = (root / "metadata.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return ReferencePool(tuple(reference(root, record) for record in records), root)


def reference(root: Path, record: dict) -> Reference:
    """One metadata record as a Reference (checked: required fields, known tier, image exists)."""
    missing = [key for key in REQUIRED_FIELDS if key not in record]
    if missing:
        raise ValueError(f"{root / 'metadata.jsonl'}: record {record} lacks {missing}")
    if record["tier"] not in TIERS:
        raise ValueError(f"unknown tier {record['tier']!r} in {root}; expected one of {TIERS}")
    image_path = root / record["file"]
    if not image_path.is_file():
        raise FileNotFoundError(f"reference image {image_path} named in metadata.jsonl is missing")
    name = record.get("name") or Path(record["file"]).stem
    return Reference(
        name, record["tier"], record["subject"], image_path, record["source"], root, record
    )


def download_pool(
    repo_id: str = HUB_POOL,
    *,
    revision: str | None = None,
    cache_dir: str | Path | None = None,
    local_files_only: bool = False,
) -> Path:
    """A local snapshot of a pool published as a hub dataset repository (downloaded once)."""
    from huggingface_hub import snapshot_download  # only hub users pay for the import

    folder = snapshot_download(
        repo_id,
        repo_type="dataset",
        revision=revision,
        cache_dir=cache_dir,
        local_files_only=local_files_only,
    )
    return Path(folder)


def load_pool(
    source: str | Path | None = None,
    *,
    revision: str | None = None,
    cache_dir: str | Path | None = None,
    local_files_only: bool = False,
) -> ReferencePool:
    """The bundled pool (`source=None`), a local folder, or a hub dataset id such as HUB_POOL."""
    if source is None:
        return read_pool(BUNDLED)
    if Path(source).is_dir():
        return read_pool(source)
    folder = download_pool(
        str(source), revision=revision, cache_dir=cache_dir, local_files_only=local_files_only
    )
    return read_pool(folder)


__all__: Sequence[str] = [
    "BUNDLED",
    "HUB_POOL",
    "TIERS",
    "Reference",
    "ReferencePool",
    "download_pool",
    "load_pool",
    "read_pool",
]
