"""The audit's verdicts from scores (`watercolor.analysis.audit_verdicts`): shares, pair CIs."""

import numpy as np
import pandas as pd
import pytest

from watercolor.analysis.audit_verdicts import (
    Margins,
    audit_lines,
    pair_line,
    passed,
    report,
    share,
)


def sketches(rows: list[tuple[str, str, str, float]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["name", "kind", "status", "total"])
    return frame.set_index("name", drop=False)


def pairs(kind: str, reference: list[float], twin: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"kind": kind, "index": range(len(reference)), "reference": reference,
                         "twin": twin})  # fmt: skip


NO_PAIRS = pd.DataFrame(columns=["kind", "index", "reference", "twin"])
TABLE = sketches([
    ("strong", "genuine", "ok", 0.8),
    ("weak", "genuine", "ok", 0.6),
    ("threw", "genuine", "error", 0.1),  # did not paint: reported, not the weakest
    ("small", "cheat", "ok", 0.3),  # exactly half of 0.6: passes
    ("big", "cheat", "ok", 0.31),
    ("refused", "cheat", "violation", 0.0),
])  # fmt: skip


def test_a_cheat_passes_at_most_its_share_of_the_weakest_genuine_painting_that_painted():
    lines = audit_lines(TABLE, NO_PAIRS, Margins()).set_index("name")
    assert lines.loc["small", "share"] == pytest.approx(0.5) and lines.loc["small", "passed"]
    assert not lines.loc["big", "passed"] and lines.loc["refused", "passed"]
    assert lines.loc["weak", "weakest"] and not lines.loc["threw", "weakest"]
    assert lines.loc[["strong", "weak", "threw"], "passed"].isna().all()  # reported, not checked
    assert not passed(lines.reset_index())
    relaxed = audit_lines(TABLE, NO_PAIRS, Margins(cheat_share=0.6))
    assert passed(relaxed)


def test_a_weakest_genuine_painting_at_zero_fails_every_paid_cheat():
    assert share(0.0, 0.0) == 0.0 and share(0.1, 0.0) == np.inf and share(0.1, np.nan) == np.inf


def test_a_pair_kind_passes_when_its_interval_lies_above_zero():
    rng = np.random.default_rng(0)
    reference = list(0.6 + rng.normal(0, 0.05, 12))
    clear = pair_line("opaque", pairs("opaque", reference, [r - 0.1 for r in reference]), Margins())
    assert clear["passed"] and clear["mean"] == pytest.approx(0.1) and clear["low"] > 0
    noisy = [r - 0.01 + rng.normal(0, 0.1) for r in reference]
    unclear = pair_line("pale", pairs("pale", reference, noisy), Margins())
    assert not unclear["passed"] and unclear["low"] < 0 < unclear["high"]
    reversed_ = pair_line("bright", pairs("bright", reference, [r + 0.1 for r in reference]),
                          Margins())  # fmt: skip
    assert not reversed_["passed"] and reversed_["high"] < 0


def test_pairs_not_painted_on_both_sides_are_left_out():
    line = pair_line("opaque", pairs("opaque", [0.6, 0.7, np.nan, 0.5], [0.4, np.nan, 0.3, 0.3]),
                     Margins())  # fmt: skip
    assert (line["pairs"], line["of"]) == (2, 4)
    assert line["mean"] == pytest.approx(0.2)  # (0.2 + 0.2) / 2: pairs 0 and 3 only
    none = pair_line("opaque", pairs("opaque", [np.nan], [0.3]), Margins())
    assert line["passed"] and not none["passed"] and none["pairs"] == 0
    one = pair_line("opaque", pairs("opaque", [0.6], [0.3]), Margins())  # a point, no interval
    assert not one["passed"] and one["mean"] == pytest.approx(0.3) and np.isnan(one["low"])
    lines = audit_lines(TABLE, pairs("opaque", [0.6], [0.3]), Margins())
    assert "FAIL (fewer than 2 pairs painted)" in report(lines, Margins())


def test_the_report_names_each_failed_check_and_the_overall_verdict():
    lines = audit_lines(TABLE, pairs("pale", [0.5] * 6, [0.5] * 6), Margins())
    text = report(lines, Margins(), "translucent", {"pale": "every fill opaque and pale"})
    rows = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    assert rows["big"].endswith("FAIL") and rows["small"].endswith("pass")
    assert rows["weak"].endswith("weakest genuine")
    assert "translucent - pale" in text and "FAIL (CI holds 0)" in text
    assert "pale: every fill opaque and pale" in text
    assert text.splitlines()[-1] == "verdict: FAIL (2 of 4 checks pass: big, pale)"
    assert "did not paint (error): not counted" in text
