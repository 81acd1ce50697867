"""The figures behind the write-up's corrections of 2026-12-07 (issue 53, item 1), re-derived from
the committed records and the git history alone (no rendering, ~20 s):

    .venv/bin/python experiments/2026-12-05_show_through/corrections_2026-12-07.py \
        > experiments/2026-12-05_show_through/corrections_2026-12-07.txt

Two kinds of interval, each named where printed: `compare`'s bootstrap over seeds and prompts
(`watercolor.analysis.matrix.bootstrap_column`, 2,000 resamples, seed 0: the write-up's own), and
the seed-level Welch 95 % interval over the jobs' means (the pale-twin control's). Post hoc, all.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sstats

from watercolor.analysis import behaviour_curves, matrix, records, stats
from watercolor.tasks.painting.twins import pale

HERE = Path(__file__).parent
ST, FG, UNTRAINED = "show_through", "fine_grained", matrix.UNTRAINED
BAND_TOP = 0.6  # the coarse set's coverage band ends here: the records read coverage above it


def samples() -> pd.DataFrame:
    """Every evaluation sample with `trained_with` and `run`, in compare's order."""
    found = records.read(HERE / "records")
    return matrix.evaluation_samples(found, matrix.matrix_table(found))


def bootstrap(table: pd.DataFrame, column: str, a: str = ST, b: str = FG) -> stats.Estimate:
    """`a - b` of `column`'s mean, compare's bootstrap interval."""
    points, draws = matrix.bootstrap_column(table, column, stats.RESAMPLES, 0)
    return stats.estimate(points[a] - points[b], draws[a] - draws[b])


def welch(table: pd.DataFrame, column: str) -> str:
    """`show_through - fine_grained` of the jobs' means of `column`, seed-level Welch 95 %."""
    jobs = table.groupby(["trained_with", "run"])[column].mean()
    a, b = jobs[ST].to_numpy(), jobs[FG].to_numpy()
    ci = sstats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    return f"{a.mean() - b.mean():+.3f} [{ci.low:+.3f}, {ci.high:+.3f}] (Welch, 5 v 5 jobs)"


def show(name: str, found: stats.Estimate) -> str:
    return f"{name}: {found.mean:+.3f} [{found.low:+.3f}, {found.high:+.3f}] (bootstrap)"


def all_opaque_fills(clean: pd.DataFrame) -> None:
    opaque = clean[clean["style/mean_alpha"] == 255]
    print("1a. clean replies whose fills are all at 255:",
          opaque.groupby("trained_with").size().to_dict())  # fmt: skip
    print("    paint_opacity, show_through - fine_grained:", welch(opaque, "paint_opacity"))
    print("    " + show("the same, compare's way", bootstrap(opaque, "paint_opacity")))


def over_band(table: pd.DataFrame) -> pd.Series:
    """Painted over more than 60 % of the sheet: below 1 on coarse's band (0.05-0.6), not below
    1 on fine_grained's (0.05-1.0, which rules out the under-5 % side)."""
    return (table["coarse/coverage"] < 1) & (table["fine_grained/coverage"] >= 1)


def coverage_adjusted(clean: pd.DataFrame) -> None:
    """Per reply, paint_opacity ~ arm + (painted > 60 %) + (coverage - 60 %, above 60 %), both
    arms' clean replies; the arm term, and the jobs' means of the coverage-adjusted values."""
    trained = clean[clean["trained_with"].isin([ST, FG])].copy()
    over = over_band(trained)
    excess = np.where(over, (1 - BAND_TOP) * (1 - trained["coarse/coverage"]), 0.0)
    design = np.c_[np.ones(len(trained)), trained["trained_with"] == ST, over, excess]
    design = design.astype(float)
    beta = np.linalg.lstsq(design, trained["paint_opacity"], rcond=None)[0]
    trained["adjusted"] = trained["paint_opacity"] - design[:, 2:] @ beta[2:]
    shares = over_band(clean).groupby(clean["trained_with"]).mean()
    print("1b. share of clean canvases painted over > 60 % of the sheet:",
          shares.round(3).to_dict())  # fmt: skip
    print(f"    OLS arm term, adjusted for coverage: {beta[1]:+.3f}")
    print("    coverage-adjusted paint_opacity:", welch(trained, "adjusted"))
    print("    " + show("the same, compare's way", bootstrap(trained, "adjusted")))
    unadjusted = bootstrap(clean, "paint_opacity").mean
    print(
        f"    share of prediction 1 ({unadjusted:+.3f}) the adjustment removes: "
        f"{1 - beta[1] / unadjusted:.2f}"
    )


def against_untrained(table: pd.DataFrame) -> None:
    print("2. " + show("paint_opacity, fine_grained - untrained",
                       bootstrap(table, "paint_opacity", FG, UNTRAINED)))  # fmt: skip
    print("   " + show("paint_opacity, show_through - untrained",
                       bootstrap(table, "paint_opacity", ST, UNTRAINED)))  # fmt: skip
    print("3. " + show("layering, show_through - untrained",
                       bootstrap(table, "layering", ST, UNTRAINED)))  # fmt: skip
    print("   " + show("layering, show_through - fine_grained", bootstrap(table, "layering")))


def flat_blocks(clean: pd.DataFrame) -> None:
    rho_pay = sstats.spearmanr(clean["flat_block"], clean["fine_grained/pigment_variation"])[0]
    rho_p1 = sstats.spearmanr(clean["flat_block"], clean["paint_opacity"])[0]
    print(f"4. per clean reply (n={len(clean)}, every arm and the untrained model), Spearman: "
          f"flat_block ~ pigment_variation {rho_pay:+.2f}; flat_block ~ paint_opacity "
          f"{rho_p1:+.2f}")  # fmt: skip


def early_steps() -> None:
    """Per seed, show_through - fine_grained of the code-read measures of the logged rollouts."""
    found = records.read(HERE / "records")
    rows = []
    for info in found.runs:
        style = behaviour_curves.task_style(found.configs[info["run_id"]])
        means = behaviour_curves.step_means(found.rollouts[info["run_id"]], style)
        rows.append(means.assign(arm=info["arm"], seed=info["seed"]).reset_index())
    table = pd.concat(rows)
    for step in (5, 10):
        for measure in ("style/mean_alpha", "style/opaque_share", "style/flat_style"):
            wide = table[table["step"] == step].pivot(index="seed", columns="arm", values=measure)
            gap = wide[ST] - wide[FG]
            print(
                f"5. step {step:>2} {measure}: per seed {gap.round(3).tolist()}, "
                f"show_through lower in {(gap < 0).sum()} of {gap.notna().sum()}"
            )


def git_time(*args: str) -> str:
    return subprocess.run(["git", "log", "--format=%h %cI %s", *args], capture_output=True,
                          text=True, check=True, cwd=HERE).stdout  # fmt: skip


def timeline() -> None:
    found = records.read(HERE / "records")
    for info in found.runs:
        if info["seed"] == "0":
            first = found.histories[info["run_id"]].loc[1, "train/step_time"]
            print(
                f"6. run '{info['run_name']}' (the start time in its name); "
                f"step 1 took {first:.1f} s"
            )
    for line in git_time("--reverse", "cb2b9a7^..2562764", "--", ".").splitlines():
        print("   commit", line[:110])


def main() -> None:
    table = samples()
    clean = table[table["status"] == "ok"]
    print("P1 as written: " + show("paint_opacity, show_through - fine_grained",
                                   bootstrap(table, "paint_opacity")))  # fmt: skip
    all_opaque_fills(clean)
    coverage_adjusted(clean)
    against_untrained(table)
    flat_blocks(clean)
    early_steps()
    timeline()
    same = clean[[pale(reply) == reply for reply in clean["reply"]]].groupby("trained_with").size()
    print(
        f"7. clean replies that are their own pale twin (no fill below 255 for it to change, "
        f"so a pale gap of 0 by construction): {same.to_dict()} of "
        f"{clean.groupby('trained_with').size().to_dict()}"
    )


if __name__ == "__main__":
    main()
