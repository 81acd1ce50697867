"""A study's records: the small files its analysis reads, written from the MLflow store.

    >>> found = from_store(client, training_runs)           # what compare reads from MLflow
    >>> export(found, "experiments/<study>/records")         # one folder per job
    >>> again = read("experiments/<study>/records")          # the same data, from a fresh clone

An MLflow store lives in `outputs/`, which may not outlive the machine; a study that runs in
parts (`watercolor.training.study`) keeps each finished job's records under `experiments/` instead,
and `python -m watercolor.compare --records DIR` rebuilds its tables from them alone. Per job
(`<records>/<arm>-seed<seed>/`, the arm being the reward set unless the study sweeps `arm`; the
untrained model's evaluation in `untrained/`): the files are listed at `export`.

Which runs of a store a study or a sweep is (`select_runs`, `evaluations`) and what their
provenance says (`provenance_table`, `provenance_warnings`: one config per arm, one commit,
one set of starting weights) live here too, beside what they select and read.

No weights and no PNGs; every parquet table goes through `write_table`: the comment there says
why.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import mlflow
import pandas as pd
from mlflow.entities import Run
from mlflow.exceptions import MlflowException
from mlflow.protos.databricks_pb2 import RESOURCE_DOES_NOT_EXIST, ErrorCode

from watercolor import usage
from watercolor.config import tracking_defaults
from watercolor.tracking import RUN_ID_FILE, sweep_store, tracking_uri

UNTRAINED_KEY = "untrained"
PROVENANCE = ("commit", "dirty", "config_hash", "study", "weights")
RUN_FILE, EVALUATION_DIR = "run.json", "evaluation"
# zstd, no per-column statistics, no second copy of the schema (pandas' metadata restores the
# dtypes): a 48-row evaluation table of ~110 columns holds ~40 KB of data behind a ~64 KB footer
# with pandas' defaults (snappy, both kept): 104 KB, now 39 KB. The same frames read back
# (`pandas.testing.assert_frame_equal`, every committed table; docs/measured.md).
PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 9,
                   "write_statistics": False, "store_schema": False}  # fmt: skip


@dataclass
class Evaluation:
    """One evaluation run: its id, the training run it evaluated ("" for the untrained
    model), its summary metrics, its per-sample table and its params (flattened config)."""

    evaluation_id: str
    source_run_id: str
    metrics: dict[str, float]
    samples: pd.DataFrame
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class Records:
    """What the analysis of some training runs reads: per run its info and provenance
    (`runs`), metric history and rollouts; the evaluations of those runs and of the untrained
    model; and each run's resolved config (YAML text)."""

    runs: list[dict] = field(default_factory=list)
    histories: dict[str, pd.DataFrame] = field(default_factory=dict)
    rollouts: dict[str, pd.DataFrame] = field(default_factory=dict)
    evaluations: list[Evaluation] = field(default_factory=list)
    configs: dict[str, str] = field(default_factory=dict)


def job_key(arm: str, seed: object) -> str:
    """The folder of one job of a study: `<arm>-seed<seed>` (its arm: `arm_of`)."""
    return f"{arm}-seed{seed}"


def arm_of(choices: Mapping[str, object]) -> str:
    """What a run is compared as: its `arm` choice (conf/arm: one study's episodes, e.g. single
    against revise) where it has one, else its reward set (a reward study's arms)."""
    arm = str(choices.get("arm") or "")
    return arm if arm not in ("", "None") else str(choices.get("reward") or "?")


# --- from an MLflow store -----------------------------------------------------------------------


def run_info(run: Run) -> dict:
    """Who the run is (id, name, experiment, reward set, arm, seed, model, status) and its
    provenance tags (`PROVENANCE`; "" when it has none)."""
    tags, params = run.data.tags, run.data.params
    reward_set = tags.get("reward", params.get("reward", "?"))
    return {
        "run_id": run.info.run_id,
        "run_name": run.info.run_name,
        "experiment_id": run.info.experiment_id,
        "reward_set": reward_set,
        "arm": arm_of({"arm": tags.get("arm"), "reward": reward_set}),
        "seed": tags.get("seed", params.get("seed", "?")),
        "model": tags.get("model", "?"),
        "status": run.info.status,
    } | {name: tags.get(name, "") for name in PROVENANCE}


def full_history(client: mlflow.MlflowClient, run: Run) -> pd.DataFrame:
    """Every metric the run logged, per step (index `step`, one column per metric)."""
    columns = {
        name: pd.Series(
            {m.step: m.value for m in client.get_metric_history(run.info.run_id, name)}, dtype=float
        )  # fmt: skip
        for name in sorted(run.data.metrics)
    }
    frame = pd.DataFrame(columns).sort_index()
    frame.index.name = "step"
    return frame


def store_rollouts(client: mlflow.MlflowClient, run_id: str) -> pd.DataFrame:
    """The run's `rollouts.json` table without its image column; empty if it logged none."""
    names = {a.path for a in client.list_artifacts(run_id)}
    if "rollouts.json" not in names:
        return pd.DataFrame(columns=["step", "index", "prompt", "reward", "status", "violations"])
    with tempfile.TemporaryDirectory() as folder:
        data = json.loads(
            Path(client.download_artifacts(run_id, "rollouts.json", folder)).read_text()
        )
    table = pd.DataFrame(data["data"], columns=data["columns"])
    return table.drop(columns=[c for c in ("canvas",) if c in table])


def store_evaluation(client: mlflow.MlflowClient, run: Run) -> Evaluation:
    """An evaluation run's metrics and its `samples.parquet` (empty when it logged none)."""
    run_id = run.info.run_id
    names = {a.path for a in client.list_artifacts(run_id)}
    samples = pd.DataFrame()
    if "samples.parquet" in names:
        with tempfile.TemporaryDirectory() as folder:
            samples = pd.read_parquet(client.download_artifacts(run_id, "samples.parquet", folder))
    return Evaluation(run_id, run.data.tags.get("source_run_id", ""), dict(run.data.metrics),
                      samples, dict(run.data.params))  # fmt: skip


def store_config(client: mlflow.MlflowClient, run_id: str) -> str:
    """The run's resolved `config.yaml` artifact ("" when it logged none)."""
    if "config.yaml" not in {a.path for a in client.list_artifacts(run_id)}:
        return ""
    with tempfile.TemporaryDirectory() as folder:
        return Path(client.download_artifacts(run_id, "config.yaml", folder)).read_text()


def from_store(
    client: mlflow.MlflowClient, runs: Sequence[Run], evaluations: Sequence[Run] = ()
) -> Records:
    """The records of training `runs` and of `evaluations` (kind=evaluate runs), from MLflow."""
    found = Records()
    for run in runs:
        run_id = run.info.run_id
        found.runs.append(run_info(run))
        found.histories[run_id] = full_history(client, run)
        found.rollouts[run_id] = store_rollouts(client, run_id)
        found.configs[run_id] = store_config(client, run_id)
    found.evaluations = [store_evaluation(client, run) for run in evaluations]
    return found


# --- which runs of a store: a sweep, a study, an experiment, ids --------------------------------


def select_runs(
    client: mlflow.MlflowClient,
    *,
    experiment: str | None = None,
    sweep_dir: str | Path | None = None,
    run_ids: Sequence[str] = (),
    filter_string: str = "",
    study: str | None = None,
) -> list[Run]:
    """Runs of an experiment, of a Hydra sweep dir (its jobs' `mlflow_run_id`), of a study
    (its `study` tag, finished runs only: a part cut off and run again leaves a RUNNING run)
    or by id.

    Experiment, sweep and study selections skip runs tagged with a `kind` (evaluate, compare).
    An experiment or run id the store does not hold is a usage error (`watercolor.usage`).
    """
    if experiment is not None:
        found = client.get_experiment_by_name(experiment)
        if found is None:
            usage.fail(f"no MLflow experiment named {experiment!r} in {client.tracking_uri}")
        runs = client.search_runs(
            [found.experiment_id], filter_string, order_by=["attributes.start_time ASC"]
        )
        return [run for run in runs if "kind" not in run.data.tags]
    if sweep_dir is not None:
        files = sorted(Path(sweep_dir).rglob(RUN_ID_FILE))
        runs = [stored_run(client, file.read_text().strip()) for file in files]
        return [run for run in runs if "kind" not in run.data.tags]
    if study is not None:
        ids = [e.experiment_id for e in client.search_experiments()]
        runs = client.search_runs(ids, f"tags.study = '{study}' and attributes.status = 'FINISHED'",
                                  order_by=["attributes.start_time ASC"])  # fmt: skip
        return [run for run in runs if "kind" not in run.data.tags]
    return [stored_run(client, run_id) for run_id in run_ids]


class StoreSelection(NamedTuple):
    """The store a comparison reads and the runs it selected there."""

    uri: str
    runs: list[Run]


def select_from_store(args: argparse.Namespace) -> StoreSelection:
    """The store and runs `python -m watercolor.compare`'s arguments (`compare_args`) name: the
    store `--tracking-uri`, else the one the sweep's jobs logged to, else training's (conf/paths;
    MLFLOW_TRACKING_URI wins); a usage error when it holds none of them. Called by the command
    before the comparison's plotting code loads, so a run id or experiment the store lacks is
    answered at once."""
    uri = args.tracking_uri or store_of_sweep(args.sweep_dir)
    uri = uri or tracking_uri(tracking_defaults()[0])
    runs = select_runs(mlflow.MlflowClient(uri), experiment=args.experiment,
                       sweep_dir=args.sweep_dir, run_ids=args.runs or (),
                       filter_string=args.filter, study=args.study)  # fmt: skip
    if not runs:
        usage.fail(f"no runs to compare in {uri} (another store? name it with --tracking-uri)")
    return StoreSelection(uri, runs)


def store_of_sweep(sweep_dir: str | None) -> str | None:
    """The store a sweep's jobs logged to (`tracking.sweep_store`), for `--sweep-dir` without
    `--tracking-uri`; None without a sweep dir or if its jobs named none."""
    if sweep_dir is None:
        return None
    try:
        return sweep_store(sweep_dir)
    except ValueError as error:
        usage.fail(error)


def stored_run(client: mlflow.MlflowClient, run_id: str) -> Run:
    """The run `run_id` of the store; a usage error when the store has no such run."""
    try:
        return client.get_run(run_id)
    except MlflowException as error:
        if error.error_code != ErrorCode.Name(RESOURCE_DOES_NOT_EXIST):
            raise
        usage.fail(f"no MLflow run {run_id} in {client.tracking_uri}")


def evaluations(
    client: mlflow.MlflowClient, runs: Sequence[Run], studies: Sequence[str] | None = None
) -> list[Run]:
    """The `kind=evaluate` runs that belong with `runs`, in the runs' experiments: the newest
    evaluation of each of `runs`, and the untrained model's evaluations of the runs' own
    studies (`studies`; default: the runs' `study` tags), the matrix's baseline row.

    An untrained evaluation of another study (an earlier one, a smoke one) never counts. Runs
    of no study (single runs) take the untrained evaluations of no study (`evaluate` by hand).
    """
    by_id = {run.info.run_id for run in runs}
    if studies is None:
        studies = {run.data.tags.get("study", "") for run in runs}
    experiment_ids = sorted({run.info.experiment_id for run in runs})
    found = client.search_runs(
        experiment_ids, "tags.kind = 'evaluate'", order_by=["attributes.start_time DESC"]
    )
    newest: dict[str, Run] = {}
    untrained = []
    for evaluation in found:
        source = evaluation.data.tags.get("source_run_id")
        if source is None and evaluation.data.tags.get("study", "") in set(studies):
            untrained.append(evaluation)
        elif source in by_id and source not in newest:
            newest[source] = evaluation
    return untrained + list(newest.values())


# --- provenance ---------------------------------------------------------------------------------


def provenance_table(found: Records, labels: pd.Series) -> pd.DataFrame:
    """Per run: label, reward set, arm, seed, commit, dirty, config hash, study and the
    fingerprint of the weights it started from."""
    rows = [{"label": label, "reward_set": info["reward_set"], "arm": info["arm"],
             "seed": info["seed"]}
            | {name: info.get(name, "") for name in PROVENANCE} | {"run_id": info["run_id"]}
            for label, info in zip(labels, found.runs, strict=True)]  # fmt: skip
    return pd.DataFrame(rows)


def provenance_warnings(table: pd.DataFrame) -> list[str]:
    """What makes the runs not one study with one training path: runs of one arm with
    different config hashes, runs that started from different weights (the same config built
    on another CPU), several commits, uncommitted training code, several studies."""
    warnings = []
    for arm, rows in table.groupby("arm", sort=True):
        hashes = sorted(set(rows["config_hash"]))
        if len(hashes) > 1:
            warnings.append(f"runs of {arm} differ in more than their seed: config "
                            f"hashes {', '.join(h or '(none)' for h in hashes)}")  # fmt: skip
    if len(weights := sorted(set(table["weights"]) - {""})) > 1:
        by_weights = {w: ", ".join(table.loc[table["weights"] == w, "label"]) for w in weights}
        listed = "; ".join(f"{w}: {labels}" for w, labels in by_weights.items())
        warnings.append("runs started from different weights (one model config built on "
                        f"several machines?): {listed}")  # fmt: skip
    commits = sorted(set(table["commit"]))
    if len(commits) > 1:
        by_commit = {c: ", ".join(table.loc[table["commit"] == c, "label"]) for c in commits}
        warnings.append("runs come from several commits (check that nothing that changes what "
                        "training computes landed between them): "
                        + "; ".join(f"{c[:10] or '(none)'}: {labels}"
                                    for c, labels in by_commit.items()))  # fmt: skip
    if (table["dirty"] == "true").any():
        dirty = ", ".join(table.loc[table["dirty"] == "true", "label"])
        warnings.append(f"runs trained with uncommitted changes to the training code: {dirty}")
    if len(studies := sorted(set(table["study"]) - {""})) > 1:
        warnings.append(f"runs of {len(studies)} studies are pooled: {', '.join(studies)} "
                        "(select one with --study or --records)")  # fmt: skip
    return warnings


# --- to and from a records folder ---------------------------------------------------------------


# The files of a job:
# - `run.json`: who the run is (id, name, reward set, arm, seed, model, status), its commit, whether
#   the training code had uncommitted changes, the hash of its config, its study and the fingerprint
#   of the weights it started from (`watercolor.analysis.provenance.weights_fingerprint`);
# - `config.yaml`: the run's resolved config;
# - `metrics.csv`: every metric the run logged, one row per step;
# - `rollouts.parquet`: the logged rollouts (step, prompt, reply, reward, status, violations,
#   components), without the canvas images;
# - `evaluation/evaluation.json` (its id, the run it evaluated, its summary metrics) and
#   `evaluation/samples.parquet` (one row per held-out sample: prompt, reply, status, violations,
#   every set's total and components, the behaviour measures).
def export(found: Records, records_dir: str | Path) -> list[Path]:
    """One folder per training run (`job_key`) and `untrained/` for an evaluation of no run;
    each written whole into a temporary folder, then renamed (a cut-off export leaves none)."""
    root = Path(records_dir)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    by_source = {e.source_run_id: e for e in found.evaluations}
    for info in found.runs:
        run_id = info["run_id"]
        key = job_key(info["arm"], info["seed"])
        written.append(_write(root, key, lambda folder, i=info, r=run_id: _write_run(
            folder, i, found.histories[r], found.rollouts[r], found.configs.get(r, ""),
            by_source.get(r))))  # fmt: skip
    if (untrained := by_source.get("")) is not None:
        written.append(_write(root, UNTRAINED_KEY, lambda f: _write_evaluation(f, untrained)))
    return written


def _write(root: Path, key: str, fill) -> Path:
    partial = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=root))
    fill(partial)
    target = root / key
    if target.exists():
        shutil.rmtree(target)
    os.rename(partial, target)
    return target


def _write_run(folder: Path, info: dict, history: pd.DataFrame, rollouts: pd.DataFrame,
               config: str, evaluation: Evaluation | None) -> None:  # fmt: skip
    (folder / RUN_FILE).write_text(json.dumps(info, indent=2) + "\n")
    (folder / "config.yaml").write_text(config)
    history.to_csv(folder / "metrics.csv")
    write_table(rollouts, folder / "rollouts.parquet")
    if evaluation is not None:
        _write_evaluation(folder, evaluation)


def _write_evaluation(folder: Path, evaluation: Evaluation) -> None:
    target = folder / EVALUATION_DIR
    target.mkdir(parents=True, exist_ok=True)
    about = {"evaluation_id": evaluation.evaluation_id,
             "source_run_id": evaluation.source_run_id,
             "metrics": {k: _json_number(v) for k, v in sorted(evaluation.metrics.items())},
             "params": dict(sorted(evaluation.params.items()))}  # fmt: skip
    (target / "evaluation.json").write_text(json.dumps(about, indent=2) + "\n")
    write_table(evaluation.samples, target / "samples.parquet")


# No weights and no PNGs: canvases are re-rendered from the replies when a gallery needs them (the
# renderer is deterministic up to a few pixels). Parquet keeps the tables' types exactly (empty
# strings, booleans), so the store and the records give the same numbers. Every parquet table the
# project writes goes through `write_table` (`PARQUET_OPTIONS`: zstd, and no footer larger than the
# data), since each study commits its records.
def write_table(table: pd.DataFrame, path: Path) -> None:
    """`table` as parquet at `path`, without its index, compact (`PARQUET_OPTIONS`)."""
    table.to_parquet(path, index=False, **PARQUET_OPTIONS)


def _json_number(value: float) -> float | None:
    return None if isinstance(value, float) and math.isnan(value) else value


def done(records_dir: str | Path, key: str) -> bool:
    """Whether job `key` has finished records (with its evaluation) in `records_dir`."""
    folder = Path(records_dir, key)
    if key == UNTRAINED_KEY:
        return (folder / EVALUATION_DIR / "evaluation.json").is_file()
    return (folder / RUN_FILE).is_file() and (folder / EVALUATION_DIR / "evaluation.json").is_file()


def starting_weights(records_dir: str | Path) -> dict[str, str]:
    """Per recorded job (and `untrained`, the model its evaluation read), the fingerprint of the
    weights it started from; jobs recorded before fingerprints were kept are left out."""
    root, found = Path(records_dir), {}
    for folder in sorted(p for p in root.glob("*") if p.is_dir() and not p.name.startswith(".")):
        if (folder / RUN_FILE).is_file():
            weights = json.loads((folder / RUN_FILE).read_text()).get("weights", "")
        elif (about := folder / EVALUATION_DIR / "evaluation.json").is_file():
            weights = json.loads(about.read_text()).get("params", {}).get("weights", "")
        else:
            continue
        if weights:
            found[folder.name] = weights
    return found


def read(records_dir: str | Path) -> Records:
    """Every finished job's records in `records_dir` (folders in name order)."""
    root = Path(records_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"no records folder {root}")
    found = Records()
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if (folder / RUN_FILE).is_file():
            info = json.loads((folder / RUN_FILE).read_text())
            info.setdefault("arm", info["reward_set"])  # records from before arms: by reward
            run_id = info["run_id"]
            found.runs.append(info)
            found.histories[run_id] = pd.read_csv(folder / "metrics.csv", index_col="step")
            found.rollouts[run_id] = pd.read_parquet(folder / "rollouts.parquet")
            found.configs[run_id] = (folder / "config.yaml").read_text()
        if (folder / EVALUATION_DIR / "evaluation.json").is_file():
            found.evaluations.append(_read_evaluation(folder / EVALUATION_DIR))
    return found


def _read_evaluation(folder: Path) -> Evaluation:
    about = json.loads((folder / "evaluation.json").read_text())
    metrics = {k: (math.nan if v is None else v) for k, v in about["metrics"].items()}
    samples = pd.read_parquet(folder / "samples.parquet")
    return Evaluation(about["evaluation_id"], about["source_run_id"], metrics, samples,
                      about.get("params", {}))  # fmt: skip
