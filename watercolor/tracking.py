"""MLflow: one run per Hydra job, with everything the run did.

    with mlflow_run(uri, "watercolor", params=flat_config, tags=overrides, run_dir=out) as run:
        log_rollouts(rollouts)  # one step's canvases, sketches and table

(A sketch of the use, not a doctest: `metric_name`'s examples below are, and they run.)

MLflow code only: no torch, transformers or TRL, so `watercolor.compare` imports quickly. The
trainer callback that calls `log_rollouts` each step is `watercolor.training.mlflow_callback`;
why not transformers' `MLflowCallback` is said there. The run id is written to
`<run_dir>/mlflow_run_id`, so a resumed job logs into the same run (`mlflow_run`). Per step:
the trainer's and the scorer's metrics (`metric_name`); every `every` steps, the group's canvases,
sketches and the rows of the rollouts table (`log_rollouts`). Saved views open the UI on what a
person compares (`save_side_by_side_view`, `save_run_view`); what a person sees and clicks:
docs/ui/README.md. Hydra callbacks: `PrepareStore` (a sweep's store, made once) and `JobLog`
(each job's log file holds its output).
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import io
import json
import logging
import math
import os
import re
import shlex
import sys
import tempfile
import urllib.parse
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import mlflow
from hydra.core.hydra_config import HydraConfig
from hydra.experimental.callback import Callback
from mlflow.entities import Run
from omegaconf import DictConfig
from PIL import Image

from watercolor.canvas import Canvas
from watercolor.rewards.trl_adapter import ROLLOUT_PREFIX

if TYPE_CHECKING:  # the reward adapter's batch type; tracking itself needs no TRL
    from watercolor.rewards.trl_adapter import Rollouts

RUN_ID_FILE = "mlflow_run_id"
# Beside it, the store the run was logged to, so a sweep dir alone finds its runs
# (`watercolor.compare --sweep-dir`, `sweep_store`).
STORE_FILE = "mlflow_tracking_uri"
# MLflow 3.17's UI keeps each saved view of an experiment's runs (filter, sort, columns, charts)
# in an experiment tag named with this prefix and the view's key; `?viewStateShareKey=<key>`
# opens one (`side_by_side_link`).
SAVED_VIEW_PREFIX = "mlflow.sharedViewState."
# (TRL log key, its MLflow name), first full match wins: the sections the MLflow UI sorts
# alphabetically then start with the reward (see the module doc).
METRIC_NAMES = (
    (r"reward", "reward/total"),
    (r"reward_std", "reward/total_std"),
    (r"rewards/(.+)/mean", r"reward/\1"),
    (r"rewards/(.+)/std", r"reward/std/\1"),
    (rf"{ROLLOUT_PREFIX}components/(.+)", r"reward/raw/\1"),
    (rf"({ROLLOUT_PREFIX}.+)", r"\1"),
    (r"((?:behaviour|crossreward)/.+)", r"\1"),  # the yardsticks (watercolor.training.yardsticks)
    (r"(step_cpu/.+)", r"\1"),  # watercolor.training.step_cpu's, after the rollouts in the UI
    (r"(.+)", r"train/\1"),
)


# MLflow 3.17's UI opens in its GenAI mode whatever the experiment holds: the mode is a setting of
# the browser (the "Model training" switch, or `?workflowType=machine_learning` in the URL), which
# no run or experiment tag changes. Its run charts come in sections named by each metric's prefix
# (all but its last `/` part), sorted alphabetically, unprefixed metrics last under "Model
# metrics"; only a saved view orders them otherwise. So a training run's metrics are logged under
# prefixes that put the reward near the top: `reward/` (TRL's `reward` as `reward/total`, each
# component's gated mean as `reward/<c>`), `reward/raw/`, `reward/std/`, `rollouts/` and `train/`;
# the yardsticks keep their names (`behaviour/`, `crossreward/`).
def metric_name(key: str) -> str:
    """The MLflow name of a trainer log key (`METRIC_NAMES`), in MLflow's characters.

    >>> metric_name("reward"), metric_name("rewards/granulation/mean"), metric_name("kl")
    ('reward/total', 'reward/granulation', 'train/kl')
    >>> metric_name("rollouts/components/coverage"), metric_name("rollouts/violations/no_sketch")
    ('reward/raw/coverage', 'rollouts/violations/no_sketch')
    """
    name = next(m.expand(to) for p, to in METRIC_NAMES if (m := re.fullmatch(p, key)))
    # MLflow metric names allow letters, digits and _ - . / space only.
    return "".join(c if c.isalnum() or c in "_-./ " else "_" for c in name)


def tracking_uri(default: str) -> str:
    """The user's MLFLOW_TRACKING_URI when set, else `default` (a `sqlite:///ABS/PATH.db` store)."""
    uri = os.environ.get("MLFLOW_TRACKING_URI") or default
    if uri.startswith("sqlite:///"):
        Path(uri.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return uri


def quiet_artifact_transfers() -> None:
    """No progress bar per artifact transfer in this process (MLflow's documented
    MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR; a user's own setting wins): `mlflow.log_table`
    downloads the run's table at every logged step to append to it, and compare fetches a file
    per canvas, each a bar on stderr that says nothing a user can act on."""
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")


def use_store(default: str) -> str:
    """Make `tracking_uri(default)` MLflow's active store in this process (its artifact
    transfers quiet: `quiet_artifact_transfers`); returns it.

    `mlflow.set_tracking_uri` also exports MLFLOW_TRACKING_URI "so that subprocess can inherit
    it"; the variable is put back as the user had it (unset, or theirs). Otherwise every command
    started afterwards (a training or evaluation, a sweep's worker, `compare`, the MLflow UI)
    would log into or read this store whatever its own `tracking.uri` said, and a second store
    in one process (a notebook) would read the first's export as the user's choice.
    """
    quiet_artifact_transfers()
    user = os.environ.get("MLFLOW_TRACKING_URI")
    uri = tracking_uri(default)
    mlflow.set_tracking_uri(uri)
    if user is None:
        os.environ.pop("MLFLOW_TRACKING_URI", None)
    else:
        os.environ["MLFLOW_TRACKING_URI"] = user
    return uri


def experiment_id(name: str, artifact_root: str | None) -> str:
    """The id of experiment `name`, created with an explicit artifact location if new."""
    found = mlflow.get_experiment_by_name(name)
    if found is not None:
        return found.experiment_id
    location = None
    if artifact_root:
        location = Path(artifact_root, name).resolve().as_uri()
    return mlflow.create_experiment(name, artifact_location=location)


def run_name(arm: str, seed: int, started: datetime.datetime | None = None) -> str:
    """How the MLflow UI lists a training run: its arm (its reward set, unless a study sweeps
    `arm`), seed and start time."""
    started = started or datetime.datetime.now()
    return f"{arm} seed {seed} {started:%Y-%m-%d %H:%M:%S}"


class PrepareStore(Callback):
    """Hydra callback: create the tracking store and the experiment once, before a sweep's jobs.

    Jobs that start together (the joblib launcher) would otherwise race to create a new sqlite
    store's tables ("table _alembic_tmp_experiments already exists"). conf/train.yaml lists it.
    """

    def on_multirun_start(self, config: DictConfig, **kwargs: object) -> None:
        # No job runs yet, so Hydra has no config set and `${hydra:runtime.cwd}` (the paths
        # group, in tracking.uri) would not resolve: the sweep's own config is the one.
        try:
            HydraConfig.instance().set_config(config)
            use_store(config.tracking.uri)
            experiment_id(config.tracking.experiment, config.tracking.artifacts)
        except Exception as exc:  # Hydra would only warn, and the jobs would race: stop here
            raise SystemExit(f"preparing the MLflow store failed: {exc!r}") from exc


class _Tee:
    """A text stream that also writes each finished line to `log`; a line a progress bar redrew
    with carriage returns is logged as its last state."""

    def __init__(self, stream, log) -> None:
        self.stream, self.log, self.partial = stream, log, ""

    def write(self, text: str) -> int:
        self.stream.write(text)
        *lines, self.partial = (self.partial + text).split("\n")
        for line in lines:
            self.keep(line)
        self.log.flush()
        return len(text)

    def keep(self, line: str) -> None:
        if "\r" in line:  # tqdm: a bar redrawn in place, or cleared for a message
            line = line.rsplit("\r", 1)[-1].rstrip()
            if not line:
                return
        self.log.write(line + "\n")

    def __getattr__(self, name: str):  # flush, isatty, fileno, encoding: the stream's
        return getattr(self.stream, name)


@contextlib.contextmanager
def output_in_job_log() -> Iterator[None]:
    """Within it, the Hydra job's log file (`<job name>.log` in its output dir) holds what the job
    prints and the records of every logger, not only of those that reach the root logger.

    Hydra's job logging gives the root logger a file handler, but a run's output mostly does not
    pass it: the project prints its lines, TRL prints each step's metrics, Python prints warnings,
    and transformers' loggers do not propagate. So the job's stdout and stderr are copied to the
    file line by line, and the other loggers' handlers that hold the process's own stdout or
    stderr write through the copy too (the root's reach the file through Hydra's handler).
    """
    files = [h for h in logging.root.handlers if isinstance(h, logging.FileHandler)]
    if not files:  # hydra/job_logging=disabled, or outside a Hydra job
        yield
        return
    streams = sys.stdout, sys.stderr
    held = [
        handler
        for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
        for handler in logger.handlers
        if type(handler) is logging.StreamHandler and handler.stream in streams
    ]
    with open(files[0].baseFilename, "a", encoding="utf-8") as log:
        tees = sys.stdout, sys.stderr = _Tee(sys.stdout, log), _Tee(sys.stderr, log)
        kept = [
            (handler, handler.setStream(tees[streams.index(handler.stream)])) for handler in held
        ]
        try:
            yield
        finally:
            sys.stdout, sys.stderr = streams
            for handler, stream in kept:
                handler.setStream(stream)
            for tee in (t for t in tees if t.partial):  # a last line with no newline
                tee.keep(tee.partial)


class JobLog(Callback):
    """Hydra callback: each job's log file holds its output (`output_in_job_log`).
    conf/train.yaml lists it."""

    kept: contextlib.ExitStack | None = None  # made in the job's process: a launcher pickles this

    def on_job_start(self, **kwargs: object) -> None:
        self.kept = contextlib.ExitStack()
        self.kept.enter_context(output_in_job_log())

    def on_job_end(self, **kwargs: object) -> None:
        if self.kept is not None:
            self.kept.close()


@contextlib.contextmanager
def mlflow_run(
    uri: str,
    experiment: str,
    *,
    params: Mapping[str, object],
    tags: Mapping[str, str],
    run_dir: Path,
    artifact_root: str | None = None,
    run_name: str | None = None,
    resume_running: bool = False,
) -> Iterator[mlflow.ActiveRun]:
    """Start (or resume, from `run_dir/mlflow_run_id`) the run of this job.

    A run that is still RUNNING is resumed only with `resume_running` (a job killed before it
    could end its run); otherwise it belongs to another live job sharing this dir, and logging
    into it would mix two trainings, so this raises instead.
    """
    uri = use_store(uri)  # the store itself: MLFLOW_TRACKING_URI wins over `uri`
    exp = experiment_id(experiment, artifact_root)
    id_file = run_dir / RUN_ID_FILE
    run_id = id_file.read_text().strip() if id_file.is_file() else None
    if run_id is not None and not resume_running:
        _refuse_live_run(run_id, id_file)
    name = run_name if run_id is None else None  # a resumed run keeps its name
    with mlflow.start_run(run_id=run_id, experiment_id=exp, run_name=name) as run:
        if run_id is None:
            _claim(id_file, run.info.run_id)
            (run_dir / STORE_FILE).write_text(uri)
            mlflow.log_params({k: _param(v) for k, v in params.items()})
        mlflow.set_tags(dict(tags))
        yield run
    print(ui_hint(uri, exp, run.info.run_id, run_view(uri, run.info.run_id)), flush=True)


UI_ADDRESS = "http://127.0.0.1:5000"  # where `mlflow ui` serves by default


def ui_links(uri: str, experiment_id: str, run_id: str, view: str | None = None) -> dict[str, str]:
    """Where a person looks at a training run in the MLflow UI: `charts` (its charts, in the run's
    saved `view` when it has one: `save_run_view`), `run` (the run's own page, its charts in
    sections sorted by name) and `runs` (the experiment's runs, in the UI's training view, which
    3.17 opens only when the URL asks: see the comment at `metric_name`). An http(s) tracking URI is
    its server's own address; a local store's is `mlflow ui`'s default."""
    base = uri.rstrip("/") if uri.startswith(("http://", "https://")) else UI_ADDRESS
    experiment = f"{base}/#/experiments/{experiment_id}"
    run = f"{experiment}/runs/{run_id}/model-metrics"
    charts = side_by_side_link(uri, experiment_id, [run_id], view) if view else run
    return {"charts": charts, "run": run, "runs": f"{experiment}?workflowType=machine_learning"}


def side_by_side_link(
    uri: str, experiment_id: str, run_ids: Sequence[str], view: str | None = None
) -> str:
    """The MLflow UI page that shows these runs of one experiment, and only them, side by side:
    the training view's chart mode (each metric one chart, a line per run), in the saved `view`
    (`save_side_by_side_view`'s key) or, without one, filtered to their ids by the URL (the UI's
    default charts: three to a row, which cuts their titles). An http(s) tracking URI is its
    server's own address; a local store's is `mlflow ui`'s."""
    base = uri.rstrip("/") if uri.startswith(("http://", "https://")) else UI_ADDRESS
    query = {"workflowType": "machine_learning", "compareRunsMode": "CHART"}
    if view is not None:  # the view holds the filter: the UI ignores a view when the URL has one
        query["viewStateShareKey"] = view
    else:
        query["searchFilter"] = "attributes.run_id IN ({})".format(
            ", ".join(f"'{run_id}'" for run_id in run_ids)
        )
    # `/runs`: the UI's redirect from the experiment's bare address drops all but workflowType.
    query_string = urllib.parse.urlencode(query, quote_via=urllib.parse.quote)
    return f"{base}/#/experiments/{experiment_id}/runs?{query_string}"


# Two kinds of saved view (an experiment tag the UI's "Views" menu lists; 3.17 takes a view's
# columns and charts from nowhere else, the URL setting only the chart mode and the search): a
# comparison's runs side by side, opening on the yardsticks (the task's audited set first) with
# each run's own reward after, since runs trained on different sets share no other ruler; and a
# training run's own (`save_run_view`), opening on `reward/total` and the yardsticks.
def save_side_by_side_view(uri: str, runs: Sequence[Run], note: str = "") -> str:
    """Save `side_by_side_view(runs)` in their experiment, where the UI's "Views" menu lists it
    (named with `note`, e.g. which jobs are identical); returns its key, the same for the same
    runs (comparing them again updates their view)."""
    ids = sorted(run.info.run_id for run in runs)
    key = SIDE_BY_SIDE_PREFIX + hashlib.sha1(",".join(ids).encode()).hexdigest()[:16]
    name = f"side by side {datetime.datetime.now():%m-%d %H:%M}" + (f": {note}" if note else "")
    experiment = runs[0].info.experiment_id
    _save_view(uri, experiment, key, name, side_by_side_view(runs))
    forget_old_views(
        uri, experiment, lambda k: not k.startswith(RUN_VIEW_PREFIX), SIDE_BY_SIDE_KEPT
    )
    return key


# The keys of our saved views (the UI's own have other keys, never ours to forget): a comparison's
# (`save_side_by_side_view`) and a training run's (`save_run_view`). An experiment keeps the
# newest so many of each: the UI saves no more views in an experiment holding 40.
SIDE_BY_SIDE_PREFIX = "watercolor-"
RUN_VIEW_PREFIX = "watercolor-run-"
SIDE_BY_SIDE_KEPT = 20
RUN_VIEWS_KEPT = 10


def forget_old_views(uri: str, experiment_id: str, ours: Callable[[str], bool], kept: int) -> None:
    """Delete all but the newest `kept` of the experiment's saved views whose key (after
    `SIDE_BY_SIDE_PREFIX`, which every key of ours starts with) `ours(key)` accepts."""
    client = mlflow.MlflowClient(uri)
    prefix = SAVED_VIEW_PREFIX + SIDE_BY_SIDE_PREFIX
    saved = {tag: json.loads(value)["updatedAt"]
             for tag, value in client.get_experiment(experiment_id).tags.items()
             if tag.startswith(prefix) and ours(tag.removeprefix(SAVED_VIEW_PREFIX))}  # fmt: skip
    for old in sorted(saved, key=saved.get, reverse=True)[kept:]:
        client.delete_experiment_tag(experiment_id, old)


def run_view(uri: str, run_id: str) -> str | None:
    """The key of the run's own saved view (`save_run_view`) if it is a training run (it logged
    `reward/total`) and the store took it; else None, and its charts link is its page."""
    client = mlflow.MlflowClient(uri)
    try:
        run = client.get_run(run_id)
        return save_run_view(uri, run) if "reward/total" in run.data.metrics else None
    except mlflow.MlflowException as error:
        print(f"the run's charts view could not be saved: {error}", file=sys.stderr)
        return None


def save_run_view(uri: str, run: Run) -> str:
    """Save a view of one training run, `reward/total` and the yardsticks first, and forget all
    but the newest `RUN_VIEWS_KEPT` such views of its experiment; returns its key.

    Why a view: 3.17's run page lays its charts out from the browser's own storage alone
    (`chartUIState` of its "RunPage" store, keyed by run; no URL or server setting), in
    sections sorted by name, a section's charts sorted too (`reward/coverage` before
    `reward/total`). Only a saved view orders charts, and views are shared by a whole
    experiment, whose UI saves no more once it holds 40: hence the cap (an older run's link
    then finds no view; its page link stays).
    """
    key = RUN_VIEW_PREFIX + hashlib.sha1(run.info.run_id.encode()).hexdigest()[:16]
    experiment = run.info.experiment_id
    state = side_by_side_view([run], reward_first=True)
    _save_view(uri, experiment, key, f"charts of {run.info.run_name}", state)
    forget_old_views(uri, experiment, lambda k: k.startswith(RUN_VIEW_PREFIX), RUN_VIEWS_KEPT)
    return key


def _save_view(uri: str, experiment_id: str, key: str, name: str, state: dict) -> str:
    """Write a view as the UI's "Views" menu reads it: an experiment tag holding its name, times
    and state, the state compressed as the UI compresses its own ("deflate;" and the base64 of
    its zlib stream: a view with every yardstick's chart is ~50 KB of JSON, the tag at most
    20,000 characters)."""
    now = int(datetime.datetime.now().timestamp() * 1000)
    packed = "deflate;" + base64.b64encode(zlib.compress(json.dumps(state).encode(), 9)).decode()
    saved = json.dumps({"name": name, "createdAt": now, "updatedAt": now, "state": packed})
    mlflow.MlflowClient(uri).set_experiment_tag(experiment_id, f"{SAVED_VIEW_PREFIX}{key}", saved)
    return key


def view_state(saved: str) -> dict:
    """The state of a saved view's tag value (`_save_view`'s, or the UI's own)."""
    state = json.loads(saved)["state"]
    if state.startswith("deflate;"):
        state = zlib.decompress(base64.b64decode(state.removeprefix("deflate;"))).decode()
    return json.loads(state)


# The yardsticks' sections (`watercolor.training.yardsticks`), in the order a view shows them:
# what every set pays the rollouts, then behaviour, the code's style, and every set's gate.
YARDSTICK_SECTIONS = ("crossreward", "behaviour", "behaviour/style", "crossreward/gate")
REWARD_HEAD = ("reward/total", "reward/total_std")  # the own reward's first section
COMPONENTS_SECTION = "reward components"  # then its components: `reward/<c>` charts


def side_by_side_view(runs: Sequence[Run], reward_first: bool = False) -> dict:
    """What the UI shows of these runs in a saved view: only them (all of them: not its default
    first ten), as a run list of the audited set's score (the task's `audited_reward`),
    `reward/total` and the execution rate, best first, and charts two to a row
    (`view_sections`): the yardsticks, then each run's own reward (`reward_first`: the own
    reward's total first). A section the view does not name would take the UI's three to a
    row: each that the runs logged is named."""
    ids = ", ".join(f"'{run.info.run_id}'" for run in runs)
    metrics = {key for run in runs for key in run.data.metrics}
    audited = audited_reward(runs)
    sections = view_sections(metrics, audited, reward_first)
    charts = [_line_chart(metric, _section_id(name)) for name, shown in sections
              for metric in shown]  # fmt: skip
    columns = run_list_columns(metrics, audited)
    return {
        "searchFilter": f"attributes.run_id IN ({ids})",
        "orderByKey": columns[1], "orderByAsc": False,
        "selectedColumns": columns[1:], "columnOrder": columns,
        "columnWidths": dict.fromkeys(columns[1:], 160) | {columns[0]: 280},
        "runsHiddenMode": "SHOW_ALL",
        "isAccordionReordered": True,  # the sections in this order, not sorted by name
        "compareRunSections": [
            {"uuid": _section_id(name), "name": name, "display": True, "columns": 2,
             "isReordered": bool(shown)}  # the UI appends a chart it adds to a listed section
            for name, shown in sections
        ],
        "compareRunCharts": charts,
    }  # fmt: skip


def view_sections(
    metrics: Iterable[str], audited: str | None, reward_first: bool = False
) -> list[tuple[str, list[str]]]:
    """The view's sections in order, each with the charts it lists in order: the yardsticks'
    (the audited set first in `crossreward` and `crossreward/gate`), the own reward's total
    (`reward`) and its components (`COMPONENTS_SECTION`), `reward_first` putting the total
    before the yardsticks (the components stay after them); then every other section the
    metrics make, by name, each left to the UI to fill (it sorts their charts by name)."""
    by_section: dict[str, list[str]] = {}
    for metric in metrics:
        section = _chart_section(metric)
        if section == "reward" and metric not in REWARD_HEAD:
            section = COMPONENTS_SECTION
        by_section.setdefault(section, []).append(metric)
    first = f"/{audited}" if audited else None
    ordered = {name: sorted(shown, key=lambda m: (not (first and m.endswith(first)), m))
               for name, shown in by_section.items()}  # fmt: skip
    yardsticks = [name for name in YARDSTICK_SECTIONS if name in ordered]
    yardsticks += sorted(n for n in ordered if n.startswith(YARDSTICK_SECTIONS) and n not in
                         yardsticks)  # fmt: skip
    components = [COMPONENTS_SECTION] if COMPONENTS_SECTION in ordered else []
    if reward_first:
        listed = ["reward", *yardsticks, *components]
    else:
        listed = [*yardsticks, "reward", *components]
    last = [n for n in ("Model metrics", "System metrics") if n in ordered]
    rest = sorted(set(ordered) - set(listed) - set(last)) + last
    return [(name, ordered.get(name, [])) for name in listed] + [(name, []) for name in rest]


def run_list_columns(metrics: Iterable[str], audited: str | None) -> list[str]:
    """The run list's columns: the run's name, the audited set's score (when logged: the one
    like-with-like ranking of runs trained on different sets), `reward/total`, execution rate."""
    shown = [f"crossreward/{audited}", "reward/total", "rollouts/execution_rate"]
    return ["attributes.`Run Name`"] + [f"metrics.`{m}`" for m in shown
                                        if m in set(metrics) or m == "reward/total"]  # fmt: skip


def audited_reward(runs: Sequence[Run]) -> str | None:
    """The audited reward set the runs' task names (their `task.audited_reward` param), if
    they agree on one."""
    named = {run.data.params.get("task.audited_reward", "null") for run in runs}
    return None if len(named) != 1 or named & {"null", "None", ""} else named.pop()


def _section_id(name: str) -> str:
    return "section-" + name.replace(" ", "-")


def _chart_section(metric: str) -> str:
    """The UI's chart section of a metric: its prefix, "Model metrics" without one."""
    prefix = metric.rpartition("/")[0]
    return {"": "Model metrics", "system": "System metrics"}.get(prefix, prefix)


def _line_chart(metric: str, section: str) -> dict:
    """A line chart (a line per run over the steps) with the fields the UI's own have."""
    return {
        "type": "LINE", "uuid": f"chart-{metric}", "metricSectionId": section,
        "metricKey": metric, "selectedMetricKeys": [metric], "displayName": metric,
        "isGenerated": True, "deleted": False, "xAxisKey": "step", "selectedXAxisMetricKey": "",
        "xAxisScaleType": "linear", "scaleType": "linear", "range": {}, "lineSmoothness": 0,
        "yAxisKey": "metric", "yAxisExpressions": [], "ignoreOutliers": False,
        "useGlobalXaxisKey": True, "useGlobalLineSmoothing": True,
    }  # fmt: skip


def mlflow_command() -> str:
    """The `mlflow` command of the running Python, runnable as printed: set-up puts the project's
    environment on no PATH, so a bare `mlflow` is not found there."""
    beside = Path(sys.executable).parent / "mlflow"  # not resolved: a venv's python is a link
    if not beside.exists():
        return f"{runnable(Path(sys.executable))} -m mlflow"
    return runnable(beside)


def runnable(program: Path) -> str:
    """`program` as a shell runs it from the working dir: relative to it when under it."""
    with contextlib.suppress(ValueError):
        return shlex.quote(str(program.absolute().relative_to(Path.cwd())))
    return shlex.quote(str(program))


def serve_hint(uri: str) -> str:
    """How to serve a store for the UI: "" for a server, else the `mlflow ui` command."""
    if uri.startswith(("http://", "https://")):
        return ""
    return f"serve the store with `{mlflow_command()} ui --backend-store-uri {uri}`, then "


def sweep_store(sweep_dir: str | Path) -> str | None:
    """The store a sweep's jobs logged to (their `STORE_FILE`s); None if no job wrote one.
    Jobs that logged to different stores are a ValueError: name the store."""
    stores = {f.read_text().strip() for f in Path(sweep_dir).rglob(STORE_FILE)}
    if len(stores) > 1:
        named = ", ".join(sorted(stores))
        raise ValueError(f"the jobs of {sweep_dir} logged to {len(stores)} stores ({named}): "
                         "name one with --tracking-uri")  # fmt: skip
    return stores.pop() if stores else None


def ui_hint(uri: str, experiment_id: str, run_id: str, view: str | None = None) -> str:
    """What a run prints when it ends: how to open it in the MLflow UI."""
    links = ui_links(uri, experiment_id, run_id, view)
    shown = [f"MLflow run {run_id}: {serve_hint(uri)}open"]
    if view:
        shown.append(f"  its charts, reward/total and the yardsticks first: {links['charts']}")
    shown.append(f"  its page: {links['run']}" if view else f"  its charts: {links['charts']}")
    return "\n".join([*shown, f"  the experiment's runs: {links['runs']}"])


def _refuse_live_run(run_id: str, id_file: Path) -> None:
    if mlflow.get_run(run_id).info.status == "RUNNING":
        raise RuntimeError(
            f"{id_file} names MLflow run {run_id}, which is still RUNNING: another job is "
            "logging into it (two jobs share this output dir), or it was killed before it "
            "ended. Use another hydra.run.dir / hydra.sweep.dir, or resume=true to continue it."
        )


def _claim(id_file: Path, run_id: str) -> None:
    """Write the run id; fails (and so ends the new run as FAILED) if another job got here first."""
    id_file.parent.mkdir(parents=True, exist_ok=True)
    try:
        with id_file.open("x") as file:
            file.write(run_id)
    except FileExistsError as exc:
        raise RuntimeError(
            f"another job started a run in {id_file.parent} at the same time"
        ) from exc


def _param(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text[:6000]  # MLflow's limit on a param value


def flatten(config: Mapping, prefix: str = "") -> dict[str, object]:
    """{"a": {"b": 1}} -> {"a.b": 1} (MLflow params are flat)."""
    flat: dict[str, object] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def canvas_grid(canvases: list[Canvas], tile: int = 200) -> Image.Image:
    """The canvases side by side (grey tiles for sketches that painted nothing)."""
    columns = min(4, len(canvases)) or 1
    rows = math.ceil(len(canvases) / columns)
    grid = Image.new("RGB", (columns * tile, rows * tile), (128, 128, 128))
    for i, canvas in enumerate(canvases):
        if canvas.png is None:
            continue
        with Image.open(io.BytesIO(canvas.png)) as image:
            thumb = image.convert("RGB").resize((tile, tile))
        grid.paste(thumb, ((i % columns) * tile, (i // columns) * tile))
    return grid


# A component's column in the rollouts table: no dot in it, since the UI's table reads a column
# named `a.b` as field b of a field a (TanStack's accessorKey) and showed `c.<name>` empty.
COMPONENT_COLUMN = "c/{}"


def rollout_rows(rollouts: Rollouts) -> list[dict]:
    """One row per completion, as a person reads it: its canvas (a PIL image; grey if it painted
    nothing), reply, reward and status, each component's raw value (`c/<name>`: None where it
    gave no verdict), then step, index, violations, errors, prompt and the reply's length."""
    rows = []
    for i, (canvas, score) in enumerate(zip(rollouts.canvases, rollouts.scores, strict=True)):
        row = {
            "canvas": canvas_image(canvas),
            "reply": rollouts.replies[i],
            "reward": score.total,
            "status": str(canvas.status),
        }
        row |= {COMPONENT_COLUMN.format(k): v for k, v in score.components.items()}
        rows.append(row | {
            "step": rollouts.step,
            "index": i,
            "violations": ",".join(canvas.violations),
            "errors": " | ".join(canvas.errors)[:500],
            "prompt": rollouts.prompts[i],
            "completion_chars": len(rollouts.replies[i]),
        })  # fmt: skip
    return rows


def canvas_image(canvas: Canvas, placeholder: int = 64) -> Image.Image:
    """The canvas as an RGB image, or a grey square when the sketch painted nothing."""
    if canvas.png is None:
        return Image.new("RGB", (placeholder, placeholder), (128, 128, 128))
    with Image.open(io.BytesIO(canvas.png)) as image:
        return image.convert("RGB")


def log_rollouts(rollouts: Rollouts, suffix: str = ".txt") -> None:
    """Grid, canvases, sketches and the rollouts table of one step, into the active run; each
    sketch as `sketch_NN<suffix>` (the task's file suffix: ".js" for painting).

    The table (`rollouts.json`, one for the run, each logged step appended) is an MLflow table
    with an image column: the run's Artifacts tab shows each canvas beside its reply and scores.
    The step's files go to the store in one `log_artifacts` call, each canvas as the PNG the
    browser encoded (`mlflow.log_image` would decode and encode it again, a call per file).
    """
    with tempfile.TemporaryDirectory(prefix="watercolor-rollouts-") as tmp:
        folder = Path(tmp)
        canvas_grid(rollouts.canvases).save(folder / "grid.png")
        for i, canvas in enumerate(rollouts.canvases):
            if canvas.png is not None:
                (folder / f"canvas_{i:02d}.png").write_bytes(canvas.png)
            (folder / f"sketch_{i:02d}{suffix}").write_text(canvas.sketch or rollouts.replies[i])
        mlflow.log_artifacts(tmp, f"rollouts/step_{rollouts.step:05d}")
    mlflow.log_table(_table(rollout_rows(rollouts)), artifact_file="rollouts.json")


def _table(rows: list[dict]) -> dict[str, list]:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    return {c: [row.get(c) for row in rows] for c in columns}
