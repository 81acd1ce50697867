"""What a training run was: the commit it ran from and a hash of what it computes.

    >>> config_hash({"seed": 0, "trainer": {"learning_rate": 3e-5}})  # seed does not count
    '...'
    >>> commit()["commit"]  # the checkout this package was imported from

    >>> weights_fingerprint("outputs/cache/tiny-335457da48af")  # what the run started from
    '7fba23e24fa4'

A study runs in parts, possibly days apart; `watercolor.compare` lists each run's commit and
config hash and warns when runs of one reward set differ in anything but their seed. A built
model's cache name covers its build config and the records it trains on, and the same build
config gives other weights on another CPU (float sums in another order: docs/measured.md,
"Command 1"), so each run also records the fingerprint of the weights it started from.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Mapping
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
# Settings that say where and how fast a run goes, not what it computes: left out of the hash
# (as is the seed, which is what the runs of one set are meant to differ in).
NOT_HASHED = ("seed", "paths", "tracking", "study", "resume", "threads")
# Task fields no run reads: the reward audit's table (`python -m watercolor.audit`).
TASK_NOT_HASHED = ("audit",)
# The parts of the checkout that decide what training computes (a change elsewhere, in tests,
# docs or experiments, leaves the run as it was).
CODE_PATHS = ("watercolor", "conf", "pyproject.toml")
# A model directory's weight files (transformers' and PEFT's names for them).
WEIGHT_FILES = ("*.safetensors", "*.bin")


def config_hash(config: Mapping) -> str:
    """12 hex digits of the config (unresolved, so paths that differ by checkout do not count)
    without `NOT_HASHED` (nor the task's `TASK_NOT_HASHED`)."""
    kept = {k: v for k, v in config.items() if k not in NOT_HASHED and k != "hydra"}
    if isinstance(kept.get("task"), Mapping):
        kept["task"] = {k: v for k, v in kept["task"].items() if k not in TASK_NOT_HASHED}
    text = json.dumps(kept, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def weights_fingerprint(model: str | Path) -> str:
    """12 hex digits naming a local model directory's weights: the sha256 of its one weight file
    (so it reads as the file's own sha256, as `sha256sum` prints it), or of every weight file's
    name and sha256 when there are several; "" for a hub id or a directory without weights."""
    folder = Path(model)
    files = sorted(f for pattern in WEIGHT_FILES for f in folder.glob(pattern)) if (
        folder.is_dir()) else []  # fmt: skip
    if not files:
        return ""
    digests = [(f.name, _sha256(f)) for f in files]
    if len(digests) == 1:
        return digests[0][1][:12]
    text = "\n".join(f"{name} {digest}" for name, digest in digests)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _sha256(file: Path) -> str:
    digest = hashlib.sha256()
    with file.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


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
