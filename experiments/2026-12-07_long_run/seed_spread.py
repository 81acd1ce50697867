"""How much a verdict near p = 0.05 owes to the bootstrap's random draws (written before part 5,
with no result of this study read; see README, "Before the last part").

    .venv/bin/python experiments/2026-12-07_long_run/seed_spread.py  # -> analysis/seed_spread.csv

`analyse.py` draws every bootstrap from one generator (seed `SEED`), so a p within ~0.01 of 0.05
can fall either side with other draws (the re-analysis's dry run: show_through's mean matted
opacity, 0.051 against 0.048). For each of question a's series in `analysis/a_change_points.csv`
whose p lies within `NEAR` of `ALPHA`, this refits it with `GENERATORS` fresh generators (seeds
1..10) and reports the p's range and how many of them call the change delayed. It decides nothing:
the registered verdict is analyse.py's; this is reported beside it.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

SPEC = importlib.util.spec_from_file_location("analyse", Path(__file__).parent / "analyse.py")
analyse = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(analyse)

NEAR = 0.01  # a p this close to ALPHA gets its spread
GENERATORS = range(1, 11)


def near(a: pd.DataFrame) -> pd.DataFrame:
    """a's rows whose p is within NEAR of ALPHA."""
    return a[(a["p_vs_line"] - analyse.ALPHA).abs() <= NEAR]


def spread(records: str, a: pd.DataFrame, stand_in: Sequence[str] = ()) -> pd.DataFrame:
    """Per near row: each generator's p, onset and delayed call."""
    found = analyse.stand_in(analyse.read(records), stand_in)
    histories = {(arm, seed): h for arm, seed, h in analyse.jobs(found)}
    rows = []
    for _, row in near(a).iterrows():
        t, y = analyse.series(histories[(row["arm"], str(row["seed"]))], row["series"])
        for generator in GENERATORS:
            fit = analyse.change_point(t, row["sign"] * y[:, 0], np.random.default_rng(generator))
            rows.append({"arm": row["arm"], "seed": row["seed"], "series": row["series"],
                         "registered_p": row["p_vs_line"], "generator": generator,
                         "p_vs_line": fit.p_vs_line, "onset": fit.onset,
                         "delayed": analyse.delayed(fit)})  # fmt: skip
    return pd.DataFrame(rows)


def main(argv: Sequence[str] | None = None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", default=str(analyse.HERE / "records"))
    parser.add_argument("--analysis", default=str(analyse.HERE / "analysis"))
    parser.add_argument("--stand-in", action="append", default=[], metavar="NEW=OLD")
    args = parser.parse_args(argv)
    a = pd.read_csv(Path(args.analysis) / "a_change_points.csv", dtype={"seed": str})
    found = spread(args.records, a, args.stand_in)
    found.to_csv(Path(args.analysis) / "seed_spread.csv", index=False)
    if len(found):
        summary = found.groupby(["arm", "seed", "series"]).agg(
            registered_p=("registered_p", "first"),
            p_min=("p_vs_line", "min"),
            p_max=("p_vs_line", "max"),
            delayed=("delayed", "sum"),
            of=("delayed", "size"),
        )
        print(summary.to_string())
    else:
        print(f"no series of question a has p within {NEAR} of {analyse.ALPHA}")
    return found


if __name__ == "__main__":
    main()
