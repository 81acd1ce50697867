"""A reward set's audit from its scores: each cheat's share of the weakest genuine painting and
each pair kind's mean difference, against stated margins (`python -m watercolor.audit`).

    sketches = pd.DataFrame({"name": [...], "kind": ["genuine", "cheat", ...],
                             "status": ["ok", ...], "total": [...]})
    pairs = pd.DataFrame({"kind": ["opaque", ...], "index": [0, ...],
                          "reference": [...], "twin": [...]})   # totals; NaN: not painted
    lines = audit_lines(sketches, pairs, Margins(cheat_share=0.5))
    print(report(lines, Margins()))    # lines.passed: every check's verdict

The checks (a line each):
- a cheat passes when its total is at most `cheat_share` of the weakest genuine painting's (the
  genuine sketches that painted cleanly; one that did not is reported, not counted);
- a pair kind passes when the 95 % bootstrap interval of mean(reference - twin) over its pairs
  lies above 0 (`watercolor.analysis.stats`: the pairs resampled with replacement, both sides of
  a pair drawn together). Pairs whose two canvases did not both paint cleanly are left out;
  fewer than two left give no interval, and no pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from watercolor.analysis.stats import (
    LEVEL,
    RESAMPLES,
    bootstrap_means,
    cells,
    estimate,
    point_mean,
    verdict,
)

GENUINE, CHEAT, PAIR = "genuine", "cheat", "pair"
MIN_PAIRS = 2  # one pair resamples to itself: a point, not an interval


@dataclass(frozen=True)
class Margins:
    """What passes: a cheat earns at most `cheat_share` of the weakest genuine painting; each
    pair kind's `level` interval of mean(reference - twin) lies above 0."""

    cheat_share: float = 0.5
    level: float = LEVEL
    resamples: int = RESAMPLES
    seed: int = 0


def share(total: float, weakest: float) -> float:
    """`total` as a share of `weakest` (inf when the weakest genuine painting earns nothing)."""
    if not np.isfinite(weakest) or weakest <= 0:
        return 0.0 if total <= 0 else float("inf")
    return total / weakest


def sketch_lines(sketches: pd.DataFrame, margins: Margins) -> pd.DataFrame:
    """One line per sketch: its total, and for a cheat its share and whether it passes."""
    genuine = sketches[(sketches["kind"] == GENUINE) & (sketches["status"] == "ok")]
    weakest = float(genuine["total"].min()) if len(genuine) else float("nan")
    lines = sketches[["kind", "name", "status", "total"]].copy()
    cheat = lines["kind"] == CHEAT
    lines["share"] = lines["total"].map(lambda total: share(total, weakest)).where(cheat)
    lines["passed"] = (lines["share"] <= margins.cheat_share).astype(object).where(cheat, None)
    lines["weakest"] = lines["name"] == (genuine["total"].idxmin() if len(genuine) else None)
    return lines


def pair_line(kind: str, pairs: pd.DataFrame, margins: Margins) -> dict:
    """The line of one pair kind: its mean(reference - twin), interval, pairs used, verdict
    (no interval, so no pass, from fewer than `MIN_PAIRS`)."""
    kept = pairs.dropna(subset=["reference", "twin"]).assign(run=0)
    indices = sorted(kept["index"])
    groups = {side: cells(kept, side, indices, prompt="index") for side in ("reference", "twin")}
    gap = point_mean(groups["reference"]) - point_mean(groups["twin"])
    draws = np.array([])
    if len(indices) >= MIN_PAIRS:
        means = bootstrap_means(groups, margins.resamples, margins.seed)
        draws = means["reference"] - means["twin"]
    found = estimate(gap, draws, margins.level)
    return {"kind": PAIR, "name": kind, "pairs": len(kept), "of": len(pairs), "mean": found.mean,
            "low": found.low, "high": found.high, "passed": verdict(found) == "yes"}  # fmt: skip


def audit_lines(sketches: pd.DataFrame, pairs: pd.DataFrame, margins: Margins) -> pd.DataFrame:
    """Every line of the audit (`sketch_lines`, then a `pair_line` per pair kind); `passed` is
    None for genuine sketches (reported, not checked)."""
    kinds = pairs.groupby("kind", sort=False) if len(pairs) else []
    paired = pd.DataFrame([pair_line(kind, rows, margins) for kind, rows in kinds])
    return pd.concat([sketch_lines(sketches, margins), paired], ignore_index=True)


def passed(lines: pd.DataFrame) -> bool:
    """Whether every check passed."""
    return bool(lines["passed"].dropna().astype(bool).all())


def report(
    lines: pd.DataFrame,
    margins: Margins,
    reference: str = "reference",
    about: Mapping[str, str] | None = None,
) -> str:
    """The audit as text: the sketches, the pairs (and what each kind's twin is: `about`) and
    the verdict."""
    out = _sketch_rows(lines[lines["kind"] != PAIR])
    if (lines["kind"] == PAIR).any():
        out += ["", *_pair_rows(lines[lines["kind"] == PAIR], margins, reference, about or {})]
    failed = lines[lines["passed"].notna() & ~lines["passed"].fillna(True).astype(bool)]
    checks = int(lines["passed"].notna().sum())
    word = "PASS" if failed.empty else "FAIL"
    named = "" if failed.empty else ": " + ", ".join(failed["name"])
    return "\n".join([
        *out,
        "",
        f"margins: a cheat earns at most {margins.cheat_share:g} of the weakest genuine painting;",
        f"         a pair kind's {_level(margins)} CI of mean({reference} - twin) lies above 0",
        f"verdict: {word} ({checks - len(failed)} of {checks} checks pass{named})",
    ])  # fmt: skip


def _sketch_rows(sketches: pd.DataFrame) -> list[str]:
    out = [f"{'sketch':<28} {'kind':<8} {'total':>6} {'share':>6}  verdict"]
    for row in sketches.sort_values(["kind", "total"], ascending=False).itertuples():
        total, share_ = _number(row.total), _number(row.share, ".2f")
        out.append(f"{row.name:<28} {row.kind:<8} {total:>6} {share_:>6}  {_sketch_verdict(row)}")
    return out


def _pair_rows(
    pairs: pd.DataFrame, margins: Margins, reference: str, about: Mapping[str, str]
) -> list[str]:
    heading = f"mean difference [{_level(margins)} CI]"
    out = [f"{'pair kind':<28} {'pairs':>8}  {heading:<28} verdict"]
    for row in pairs.itertuples():
        counted = f"{row.pairs:.0f} of {row.of:.0f}"
        interval = f"{row.mean:+.3f} [{row.low:+.3f}, {row.high:+.3f}]"
        out.append(
            f"{reference + ' - ' + row.name:<28} {counted:>8}  {interval:<28} {_pair_verdict(row)}"
        )
    return out + [f"  {kind}: {text}" for kind, text in about.items()]


def _level(margins: Margins) -> str:
    return f"{margins.level * 100:g} %"


def _sketch_verdict(row) -> str:
    if row.kind == CHEAT:
        return "pass" if row.passed else "FAIL"
    note = "weakest genuine" if row.weakest else ""
    return note if row.status == "ok" else f"did not paint ({row.status}): not counted"


def _pair_verdict(row) -> str:
    if row.passed:
        return "pass"
    if row.pairs < MIN_PAIRS:
        return f"FAIL (fewer than {MIN_PAIRS} pairs painted)"
    return "FAIL (CI holds 0)" if row.low <= 0 <= row.high else "FAIL (the twin scores higher)"


def _number(value: float, spec: str = ".3f") -> str:
    return "" if value is None or pd.isna(value) else format(value, spec)
