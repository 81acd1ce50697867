"""What a training run was: the commit it ran from and a hash of what it computes.

    >>> config_hash({"seed": 0, "trainer": {"learning_rate": 3e-5}})  # seed does not count
    '...'
    >>> commit()["commit"]  # the checkout this package was imported from

A study runs in parts, possibly days apart; `watercolor.compare` lists each run's commit and
config hash and warns when runs of one reward set differ in anything but their seed.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Mapping
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
# Settings that say where and how fast a run goes, not what it computes: left out of the hash
# (as is the seed, which is what the runs of one set are meant to differ in).
NOT_HASHED = ("seed", "paths", "tracking", "study", "resume", "threads")
# The parts of the checkout that decide what training computes (a change elsewhere, in tests,
# docs or experiments, leaves the run as it was).
CODE_PATHS = ("watercolor", "conf", "pyproject.toml")


def config_hash(config: Mapping) -> str:
    """12 hex digits of the config (unresolved, so paths that differ by checkout do not count)
    without `NOT_HASHED`."""
    kept = {k: v for k, v in config.items() if k not in NOT_HASHED and k != "hydra"}
    text = json.dumps(kept, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def commit(checkout: Path = CHECKOUT) -> dict[str, str]:
    """`commit` (HEAD, or "unknown" outside git) and `dirty` ("true" when the training code,
    `CODE_PATHS`, has uncommitted changes: then the commit does not say what ran)."""
    head = _git(checkout, "rev-parse", "HEAD")
    if head is None:
        return {"commit": "unknown", "dirty": "unknown"}
    changes = _git(checkout, "status", "--porcelain", "--", *CODE_PATHS)
    return {"commit": head, "dirty": "true" if changes else "false"}


def _git(checkout: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(checkout), *args], capture_output=True,
                              text=True, timeout=30, check=True)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()
