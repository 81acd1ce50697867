"""Spread over generator seeds (1-20, 2,000 resamples) of the figures near a threshold, in both
codes (reanalysis.py; analyse.py and compare's bootstrap_column): a's coarse means, b's coarse
leave-outs and fine_grained 7's window 66-95, every d prediction with and without each seed.

    PYTHONSAFEPATH=1 nice -n 10 .venv/bin/python $E/reanalysis/spread.py  # E: the study folder

~8 min wall (1 min 40 s CPU) on the 2-core machine; writes reanalysis/spread.csv.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.analysis import matrix, stats

E = Path(__file__).resolve().parents[1]  # the study's folder


def load(name):
    spec = importlib.util.spec_from_file_location(name, E / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


re_, an = load("reanalysis"), load("analyse")
SEEDS = range(1, 21)
out = []
jobs = re_.read_metrics(E / "records", {})
steps = np.arange(1, 151)
# a: mine, 20 generators
for col, sign, arm, seed in [
    (re_.OWN, 1, "coarse", "mean"),
    (re_.OWN, 1, "coarse", "mean-5"),
    (re_.OWN, 1, "coarse", "mean-7"),
    (re_.OPACITY, -1, "coarse", "mean-7"),
]:
    s = re_.series_families(jobs, col, steps)[(arm, seed)]
    for g in SEEDS:
        re_.SEED = g
        f = re_.change_point(sign * s, (arm, seed, col), 2000)
        out.append(
            dict(
                q="a",
                code="reanalysis",
                arm=arm,
                seed=seed,
                what=col,
                gen=g,
                p=f["p"],
                onset=f["onset"],
                yes=f["delayed"],
            )
        )
re_.SEED = 0
# a: analyse's code for coarse mean reward (not in seed_spread.csv)
found = an.read(str(E / "records"))
hist = {(a, s): h for a, s, h in an.jobs(found)}
for arm, seed in [("coarse", "mean"), ("coarse", "mean-7")]:
    t, y = an.series(hist[(arm, seed)], an.OWN)
    for g in SEEDS:
        f = an.change_point(t, y[:, 0], np.random.default_rng(g))
        out.append(
            dict(
                q="a",
                code="analyse",
                arm=arm,
                seed=seed,
                what=an.OWN,
                gen=g,
                p=f.p_vs_line,
                onset=f.onset,
                yes=an.delayed(f),
            )
        )
# b: coarse mean-5 / mean-7 / mean main window, both codes
owns = re_.series_families(jobs, re_.OWN, steps)
auds = re_.series_families({k: v for k, v in jobs.items() if k[0] == "coarse"}, re_.AUDITED, steps)
half = steps[steps > 75]
for seed in ["mean", "mean-5", "mean-6", "mean-7"]:
    for g in SEEDS:
        re_.SEED = g
        f = re_.signature(
            owns[("coarse", seed)].loc[half],
            auds[("coarse", seed)].loc[half],
            ("coarse", seed, "b"),
            2000,
        )
        out.append(
            dict(
                q="b",
                code="reanalysis",
                arm="coarse",
                seed=seed,
                what="own_low/aud_high",
                gen=g,
                p=f"{f['own_low']:.3g}/{f['audited_high']:.3g}",
                yes=f["signature"],
            )
        )
        t, ys = an.series(hist[("coarse", seed)], an.OWN, an.AUDITED)
        w = an.second_half(t)
        o, au = an.slopes(t[w], ys[w], np.random.default_rng(g))
        out.append(
            dict(
                q="b",
                code="analyse",
                arm="coarse",
                seed=seed,
                what="own_low/aud_high",
                gen=g,
                p=f"{o.low:.3g}/{au.high:.3g}",
                yes=an.signature(o, au, t[w].max() - t[w].min()),
            )
        )
# b secondary: fine_grained 7 window 66-95
for g in SEEDS:
    re_.SEED = g
    w = slice(66, 95)
    f = re_.signature(
        owns[("fine_grained", "7")].loc[w],
        re_.series_families(jobs, re_.AUDITED, steps)[("fine_grained", "7")].loc[w],
        ("x", g),
        500,
    )
    out.append(
        dict(
            q="b66",
            code="reanalysis",
            arm="fine_grained",
            seed="7",
            what="own_low/aud_high",
            gen=g,
            p=f"{f['own_low']:.3g}/{f['audited_high']:.3g}",
            yes=f["signature"],
        )
    )
    t, ys = an.series(hist[("fine_grained", "7")], an.OWN, an.AUDITED)
    inside = (t >= 66) & (t < 96)
    o, au = an.slopes(t[inside], ys[inside], np.random.default_rng(g), resamples=500)
    out.append(
        dict(
            q="b66",
            code="analyse",
            arm="fine_grained",
            seed="7",
            what="own_low/aud_high",
            gen=g,
            p=f"{o.low:.3g}/{au.high:.3g}",
            yes=an.signature(o, au, 29),
        )
    )
re_.SEED = 0
# d: both codes, 20 generators, every prediction with no seed and each seed left out
samples = re_.read_samples(E / "records")
amat = an.matrix.evaluation_samples(found, an.matrix.matrix_table(found))
orig = np.random.default_rng
for name, col, a, b, sign in re_.PREDICTIONS:
    for drop in [None, "5", "6", "7"]:
        for g in SEEDS:
            np.random.default_rng = lambda s=None, g=g: orig(g)
            row = re_.prediction(samples, name, col, a, b, sign, 2000, drop)
            np.random.default_rng = orig
            out.append(
                dict(
                    q="d",
                    code="reanalysis",
                    arm=name,
                    seed=drop,
                    what="low/high",
                    gen=g,
                    p=f"{row['low']:.4g}/{row['high']:.4g}",
                    yes=row["verdict"],
                    low=row["low"],
                    high=row["high"],
                )
            )
            sub = amat if drop is None else amat[amat["seed"] != drop]
            pts, dr = matrix.bootstrap_column(sub, col, 2000, g)
            est = stats.estimate(pts[a] - pts[b], dr[a] - dr[b], 0.95)
            v = re_.judged(est.low, est.high, sign)
            out.append(
                dict(
                    q="d",
                    code="analyse",
                    arm=name,
                    seed=drop,
                    what="low/high",
                    gen=g,
                    p=f"{est.low:.4g}/{est.high:.4g}",
                    yes=v,
                    low=est.low,
                    high=est.high,
                )
            )
pd.DataFrame(out).to_csv(E / "reanalysis/spread.csv", index=False, float_format="%.6g")
print("done")
