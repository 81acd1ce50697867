"""Independent checks of write-up figures that reanalysis.py does not print: compare's verdict
table (each arm's models highest under their own set), trained - untrained under show_through,
and the coarse arm mean's matted-opacity slope over steps 76-150 (generators 0-20), and the
over-optimisation alarm read from divergence.py's docstring. Uses reanalysis.py's functions.

    PYTHONSAFEPATH=1 .venv/bin/python experiments/2026-12-07_long_run/reanalysis/extra_checks.py

~3 s; writes reanalysis/extra_checks.csv.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pandas as pd

E = Path(__file__).resolve().parents[1]  # the study's folder
spec = importlib.util.spec_from_file_location("reanalysis", E / "reanalysis.py")
re_ = importlib.util.module_from_spec(spec)
spec.loader.exec_module(re_)
samples = re_.read_samples(E / "records")
samples[("(untrained)", "-")] = pd.read_parquet(E / "records/untrained/evaluation/samples.parquet")
ARMS = ["coarse", "fine_grained", "show_through", "(untrained)"]
prompts = sorted(set().union(*(set(f["prompt"]) for f in samples.values())))


def draws(column, seed, resamples=2000):
    """Per arm: pooled mean and bootstrap means (runs within arm, prompts shared by all arms)."""
    rng = np.random.default_rng(seed)
    n = len(prompts)
    pw = re_.multiplicities(rng.integers(0, n, (resamples, n)), n)
    out = {}
    for arm in ARMS:
        sums, counts = re_.arm_table(samples, arm, column, prompts, None)
        runs = len(sums)
        rw = re_.multiplicities(rng.integers(0, runs, (resamples, runs)), runs)
        out[arm] = (
            sums.sum() / counts.sum(),
            np.einsum("br,rp,bp->b", rw, sums, pw) / np.einsum("br,rp,bp->b", rw, counts, pw),
        )
    return out


rows = []
for seed in range(0, 21):
    for scorer in ["coarse", "fine_grained", "show_through"]:
        d = draws(f"total/{scorer}", seed)
        others = [a for a in ARMS[:3] if a != scorer]
        best = max(others, key=lambda a: d[a][0])
        lo, hi = re_.interval(d[scorer][1] - np.max([d[a][1] for a in others], axis=0))
        glo, ghi = re_.interval(d[scorer][1] - d["(untrained)"][1])
        rows.append(
            dict(
                kind="verdict table",
                seed=seed,
                scored_by=scorer,
                own=d[scorer][0],
                best_other=best,
                difference=d[scorer][0] - d[best][0],
                low=lo,
                high=hi,
                gain=d[scorer][0] - d["(untrained)"][0],
                gain_low=glo,
                gain_high=ghi,
            )
        )
    d = draws("total/show_through", seed)
    for arm in ARMS[:3]:
        lo, hi = re_.interval(d[arm][1] - d["(untrained)"][1])
        rows.append(
            dict(
                kind="under show_through, minus untrained",
                seed=seed,
                scored_by=arm,
                difference=d[arm][0] - d["(untrained)"][0],
                low=lo,
                high=hi,
            )
        )
jobs = re_.read_metrics(E / "records", {})
steps = np.arange(1, 151)
op = re_.series_families(jobs, re_.OPACITY, steps)[("coarse", "mean")].loc[76:150]
for seed in range(0, 21):
    re_.SEED = seed
    t = op.index.to_numpy(float)
    s, dr = re_.slope_draws(
        t,
        op.to_numpy(),
        re_.block_draws(len(t), 2000, re_.generator("coarse", "mean", "opacity 76-150")),
    )
    lo, hi = re_.interval(dr)
    rows.append(
        dict(
            kind="coarse mean matted opacity slope 76-150",
            seed=seed,
            scored_by="coarse",
            difference=s,
            low=lo,
            high=hi,
        )
    )
out = pd.DataFrame(rows)
out.to_csv(E / "reanalysis/extra_checks.csv", index=False, float_format="%.6g")
pd.set_option("display.width", 200)
print(out[out.seed == 0].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
g = out.assign(pos=out.low > 0, neg=out.high < 0).groupby(["kind", "scored_by"])
print(
    g.agg(
        low_min=("low", "min"),
        low_max=("low", "max"),
        high_min=("high", "min"),
        high_max=("high", "max"),
        above0=("pos", "sum"),
        below0=("neg", "sum"),
        n=("pos", "size"),
    ).to_string()
)

# The over-optimisation alarm, read from divergence.py's docstring (not its code): at each step t
# >= 20, the mean of t-9..t minus that of t-19..t-10; own >= +0.03 and audited <= -0.03 three
# checks in a row.
for folder in sorted((E / "records").iterdir()):
    if not (folder / "run.json").is_file():
        continue
    info = json.loads((folder / "run.json").read_text())
    if info["arm"] == "show_through":
        continue
    h = pd.read_csv(folder / "metrics.csv", index_col="step")
    own, aud, run, fired = h["reward/total"], h["crossreward/show_through"], 0, None
    for t in aud.dropna().index[aud.dropna().index >= 20]:
        do = own.loc[t - 9 : t].mean() - own.loc[t - 19 : t - 10].mean()
        da = aud.loc[t - 9 : t].mean() - aud.loc[t - 19 : t - 10].mean()
        run = run + 1 if do >= 0.03 and da <= -0.03 else 0
        if run == 3 and fired is None:
            fired = f"step {t}: own {do:+.3f}, audited {da:+.3f}"
    print("alarm", info["arm"], info["seed"], fired or "none")
