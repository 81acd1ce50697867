"""Draft-vs-revision evaluation (watercolor/evaluation/revisions.py, revision_stats.py): the
measures on tables built by hand (each known answer), and one real evaluation of the smoke painter
(slow: it generates, paints and scores drafts, second tries and three revisions of each)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from watercolor.analysis.revision_stats import MEASURES, draft_vs_single_turn, revision_measures
from watercolor.evaluation.revisions import other_prompts_feedback
from watercolor.evaluation.sampling import Sample

OK, ERROR = "ok", "error"
REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "outputs" / "cache"  # the smoke painter, built once per machine


def rows(prompt: int, draft, revision, *, second=0.0, empty=0.0, other=0.0, run=0, sample=0):
    """One draft's five rows: (total, status, sketch) for draft and revision; totals for the
    controls."""
    made = []
    for role, (total, status, sketch) in {
        "draft": draft, "revision": revision, "second": (second, OK, "s"),
        "revision_empty": (empty, OK, "e"), "revision_other": (other, OK, "o"),
    }.items():  # fmt: skip
        made.append({"run": run, "prompt_index": prompt, "sample": sample, "role": role,
                     "total/fine_grained": total, "status": status, "sketch": sketch})  # fmt: skip
    return made


def table(*drafts) -> pd.DataFrame:
    return pd.DataFrame([row for draft in drafts for row in draft])


def test_each_measure_reads_the_pairs_it_is_defined_on():
    t = table(
        rows(0, (0.0, ERROR, "a"), (0.6, OK, "b")),  # crash fixed
        rows(1, (0.0, ERROR, "c"), (0.0, ERROR, "c")),  # crash not fixed, copied
        rows(2, (0.5, OK, "d"), (0.7, OK, "e"), second=0.9, empty=0.7, other=0.4),
        rows(3, (0.6, OK, "f"), (0.4, OK, "f  "), second=0.1, empty=0.5, other=0.4),  # regression
    )
    m = {name: e.mean for name, e in revision_measures(t, "fine_grained", resamples=200).items()}
    assert set(m) == set(MEASURES)
    assert m["crash_fix_rate"] == pytest.approx(0.5)  # 1 of the 2 drafts that threw
    assert m["clean_draft_change"] == pytest.approx((0.2 - 0.2) / 2)  # only drafts 2 and 3
    assert m["regression_rate"] == pytest.approx(1 / 4)
    assert m["copy_rate"] == pytest.approx(2 / 4)  # whitespace does not make a new sketch
    # controls: the revision minus best-of-2 (draft or second try), minus each other revision
    assert m["vs_best_of_2"] == pytest.approx((0.6 + 0.0 + (0.7 - 0.9) + (0.4 - 0.6)) / 4)
    assert m["vs_empty_feedback"] == pytest.approx((0.6 + 0 + 0.0 - 0.1) / 4)
    assert m["vs_other_feedback"] == pytest.approx((0.6 + 0 + 0.3 + 0.0) / 4)


def test_a_clear_gain_has_an_interval_above_zero_and_no_gain_holds_zero():
    gain = table(*(rows(p, (0.3, OK, "a"), (0.6 + p / 100, OK, "b")) for p in range(12)))
    noise = table(*(rows(p, (0.5, OK, "a"), (0.5 + (-1) ** p / 10, OK, "b")) for p in range(12)))
    up = revision_measures(gain, "fine_grained", resamples=500)["clean_draft_change"]
    flat = revision_measures(noise, "fine_grained", resamples=500)["clean_draft_change"]
    assert up.low > 0 and flat.covers(0.0), (up, flat)


def test_runs_are_kept_apart_when_pairing():
    two_runs = table(
        rows(0, (0.2, OK, "a"), (0.4, OK, "b"), run=0),
        rows(0, (0.2, OK, "a"), (0.0, OK, "b"), run=1),
    )
    m = revision_measures(two_runs, "fine_grained", resamples=100)
    assert m["clean_draft_change"].mean == pytest.approx(0.0)
    assert m["regression_rate"].mean == pytest.approx(0.5)


def test_another_prompts_feedback_is_never_the_drafts_own():
    samples = [Sample(p, f"prompt {p}", s, "", 1, False) for p in range(3) for s in range(2)]
    texts = [f"feedback {s.prompt_index}/{s.sample}" for s in samples]
    others = other_prompts_feedback(samples, texts)
    for sample, text in zip(samples, others, strict=True):
        assert text == f"feedback {(sample.prompt_index + 1) % 3}/{sample.sample}"


def test_drafts_worse_than_the_single_turn_models_replies_show_as_below_zero():
    revising = pd.DataFrame([{"prompt_index": p, "sample": 0, "role": "draft",
                              "total/gated": 0.2} for p in range(10)])  # fmt: skip
    single = pd.DataFrame([{"prompt_index": p, "sample": 0, "total/gated": 0.5 + p / 100}
                           for p in range(10)])  # fmt: skip
    gap = draft_vs_single_turn(revising, single, "gated", resamples=300)
    assert gap.mean == pytest.approx(0.2 - 0.545) and gap.high < 0


@pytest.mark.slow
@pytest.mark.browser
def test_evaluate_with_two_turns_pairs_every_role_and_writes_the_measures(tmp_path):
    # `python -m watercolor.evaluate task.turns=2` as a user runs it, on the smoke painter (it
    # cannot revise: this checks the protocol, not that revisions improve).
    command = [sys.executable, "-m", "watercolor.evaluate", "debug=smoke", "task.turns=2",
               "num_prompts=2", "samples=1", "rewards=[fine_grained,gated]",
               f"tracking.uri=sqlite:///{tmp_path}/mlflow.db", f"hydra.run.dir={tmp_path}/eval",
               f"tracking.artifacts={tmp_path}/artifacts", f"paths.cache={CACHE}"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    t = pd.read_parquet(tmp_path / "eval" / "samples.parquet")
    assert sorted(t["role"].value_counts().items()) == [
        ("draft", 2),
        ("revision", 2),
        ("revision_empty", 2),
        ("revision_other", 2),
        ("second", 2),
    ]
    drafts = t[t["role"] == "draft"].set_index("prompt_index")
    revisions = t[t["role"] == "revision"].set_index("prompt_index")
    assert (revisions["feedback"] == drafts["feedback"]).all()  # the draft's own feedback
    assert all(text for text in drafts["feedback"])
    assert (t[t["role"] == "revision_empty"]["feedback"] == "").all()
    others = t[t["role"] == "revision_other"].set_index("prompt_index")["feedback"]
    assert list(others) == list(drafts["feedback"][::-1])  # two prompts: each the other's
    report = json.loads((tmp_path / "eval" / "revision.json").read_text())
    assert set(report) == {"fine_grained", "gated"} and set(report["gated"]) == set(MEASURES)
