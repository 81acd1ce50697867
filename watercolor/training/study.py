"""A sweep that is a whole study, run in as many parts as it takes: each job's model evaluated
when it finishes and its records kept, then the untrained model, then the runs side by side.

    python -m watercolor.train experiment=three_rewards_v2 seed=0              # a part: seed 0
    python -m watercolor.train experiment=three_rewards_v2 study.max_jobs=4    # 4 jobs not done
    python -m watercolor.compare --records experiments/2026-12-01_three_rewards_v2/records

A study's jobs differ in their seed and in one other choice, its arms: the reward set (the
three-reward study) or `arm` (conf/arm; the revision study's single against revise).

A Hydra callback (`hydra.callbacks`, Hydra's own hook for work around jobs) that an experiment
switches on, with the records folder its jobs share (`study.records` in conf/train.yaml):

    study: {records: ${hydra:runtime.cwd}/experiments/<study>/records, max_jobs: null}
    hydra:
      callbacks:
        study: {_target_: watercolor.training.study.Study}  # or Study's settings, e.g. samples: 8

A part plans which jobs it runs (`on_multirun_start`), evaluates and records each job it ran
(`on_job_end`), then evaluates the untrained model and compares (`on_multirun_end`); the comment
above `Study` says each step in full, and how failures and study tags keep a study whole.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import mlflow
from hydra.core.hydra_config import HydraConfig
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.utils import JobReturn, JobStatus
from hydra.experimental.callback import Callback
from hydra.types import RunMode
from omegaconf import DictConfig

from watercolor.analysis import records
from watercolor.analysis.records import UNTRAINED_KEY, arm_of, job_key
from watercolor.config import STUDY_PROMPTS, STUDY_SAMPLES, compose_config
from watercolor.tracking import RUN_ID_FILE, tracking_uri

log = logging.getLogger(__name__)
# Groups of the training config that the untrained model's evaluation takes over.
SHARED_GROUPS = ("model", "renderer", "task", "debug")
PLAN_FILE, FAILURES_DIR, STUDY_FILE = "study_plan.json", "study_failures", "study.json"
SWEPT = ("arm", "reward", "seed")  # what the jobs of a study may differ in


# --- which study, which jobs --------------------------------------------------------------------


def study_id(records_dir: str | Path | None, sweep_dir: str | Path | None) -> str:
    """The study a run belongs to: its records folder's id (made by the first part, kept in
    `study.json`), else the sweep dir; "" for a single run."""
    if records_dir is not None:
        file = Path(records_dir, STUDY_FILE)
        if not file.is_file():
            file.parent.mkdir(parents=True, exist_ok=True)
            name = f"{Path(records_dir).resolve().parent.name}-{uuid.uuid4().hex[:8]}"
            file.write_text(json.dumps({"study": name}, indent=2) + "\n")
        return json.loads(file.read_text())["study"]
    return str(Path(sweep_dir).resolve()) if sweep_dir is not None else ""


def job_sweep_dir(hydra_node: DictConfig) -> Path:
    """The sweep dir a job runs in, from its own output dir.

    Not `hydra.sweep.dir`: the default holds `${now:...}`, which a copy of the config (Hydra's
    `JobReturn.hydra_cfg`, a launcher's worker) resolves again, at a later time, to a folder
    that does not exist; the job's `runtime.output_dir` is a resolved path.
    """
    depth = len(Path(str(hydra_node.sweep.subdir)).parts)
    return Path(hydra_node.runtime.output_dir).parents[depth - 1]


def sweep_jobs(config: DictConfig) -> list[str]:
    """The job keys (`<arm>-seed<seed>`, `records.arm_of`) of every job the sweep launches,
    from `hydra.sweeper.params` and the command line (which wins), lowest seeds first."""
    texts = [f"{k}={v}" for k, v in (config.hydra.sweeper.params or {}).items()]
    values: dict[str, list[str]] = {}
    for override in OverridesParser.create().parse_overrides(
        [*texts, *config.hydra.overrides.task]
    ):
        key = override.get_key_element().lstrip("+")
        if override.is_sweep_override() and key not in SWEPT:
            raise SystemExit(f"a study's jobs differ only in {', '.join(SWEPT)}, "
                             f"but this sweep also varies {key}")  # fmt: skip
        if key in SWEPT:
            values[key] = (list(override.sweep_string_iterator()) if override.is_sweep_override()
                           else [override.get_value_element_as_str()])  # fmt: skip
    choices = config.hydra.runtime.choices
    arms = values.get("arm", [choices.get("arm")])
    rewards = values.get("reward", [choices.reward])
    if len(arms) > 1 and len(rewards) > 1:
        raise SystemExit("a study compares arms or reward sets, not both: this sweep varies "
                         f"arm ({', '.join(arms)}) and reward ({', '.join(rewards)})")  # fmt: skip
    keys = [arm_of({"arm": a, "reward": r}) for a in arms for r in rewards]
    seeds = sorted(values.get("seed", [str(config.seed)]), key=_seed_order)
    return [job_key(key, seed) for seed in seeds for key in keys]


def _seed_order(seed: str) -> tuple:
    return (0, int(seed), "") if seed.lstrip("-").isdigit() else (1, 0, seed)


def make_plan(jobs: Sequence[str], records_dir: str | Path | None, max_jobs: int | None) -> dict:
    """{"done": jobs with complete records, "run": the next at most `max_jobs` of the others,
    "later": the rest, "untrained_done": whether the untrained model's evaluation is recorded}."""
    done = [j for j in jobs if records_dir is not None and records.done(records_dir, j)]
    pending = [j for j in jobs if j not in done]
    run = pending if max_jobs is None else pending[:max_jobs]
    untrained = records_dir is not None and records.done(records_dir, UNTRAINED_KEY)
    return {"done": done, "run": run, "later": pending[len(run) :], "untrained_done": untrained}


def describe(plan: dict, records_dir: str | Path | None) -> str:
    """The plan in words, for the console before any job starts."""
    where = f"records in {records_dir}" if records_dir is not None else "no records folder"
    lines = [f"study plan ({where}):",
             f"  already done ({len(plan['done'])}): {', '.join(plan['done']) or '-'}",
             f"  this part runs ({len(plan['run'])}): {', '.join(plan['run']) or '-'}",
             f"  left for a later part ({len(plan['later'])}): {', '.join(plan['later']) or '-'}",
             "  untrained model's evaluation: "
             + ("done" if plan["untrained_done"] else "this part (at its end)")]  # fmt: skip
    return "\n".join(lines)


class OtherWeightsError(RuntimeError):
    """A job of a study would start from other weights than the study's recorded jobs did."""


def check_weights(study: DictConfig, weights: str) -> None:
    """Refuse to train a job of a study whose recorded jobs (or untrained evaluation) started
    from other weights than `weights` (`watercolor.analysis.provenance.weights_fingerprint`).

    A built model (the tiny painters) is cached by the hash of its build config, but the same
    config builds other weights on another CPU; a part run on another machine would then
    compare arms that started from different models. A study may also pin its painter
    (`study.weights`, 12 hex digits): every job, the first included, must start from it.
    `study.allow_other_weights=true` trains anyway (compare still warns); moving the other
    jobs' records aside re-runs them.
    """
    if not weights or study.get("allow_other_weights", False):
        return
    pinned = study.get("weights")  # quoted in YAML: a digits-only fingerprint would be a number
    if pinned is not None and str(pinned) != weights:
        raise OtherWeightsError(
            f"this job starts from weights {weights}, but the study pins study.weights={pinned} "
            "(its pre-registered painter): rebuild that painter the way the study's README "
            "says, or set study.allow_other_weights=true"
        )
    if study.records is None:
        return
    others = {key: w for key, w in records.starting_weights(study.records).items() if w != weights}
    if others:
        listed = ", ".join(f"{key} from {w}" for key, w in others.items())
        raise OtherWeightsError(
            f"this job starts from weights {weights}, but the study's records in "
            f"{study.records} started from other weights ({listed}): the same model config "
            "built on another machine? Run the part where those were built, move their records "
            "aside to re-run them on these weights, or set study.allow_other_weights=true"
        )


def runs_in_this_part(study: DictConfig, seed: int, arm: str) -> bool:
    """Whether this job of a study trains in this part; if not, says why on stdout
    (`skip_reason`)."""
    if reason := skip_reason(study, seed, arm):
        print(f"study: not training: {reason}", flush=True)
        return False
    return True


def skip_reason(study: DictConfig, seed: int, arm: str) -> str | None:
    """Why a job of a study sweep does not train (done already, or left for a later part), or
    None: it trains. Outside a sweep with a plan (a single run), always None."""
    hydra_cfg = HydraConfig.get()
    if hydra_cfg.mode != RunMode.MULTIRUN:
        return None
    plan_file = job_sweep_dir(hydra_cfg) / PLAN_FILE
    if not plan_file.is_file():
        return None
    plan, key = json.loads(plan_file.read_text()), job_key(arm, seed)
    if key in plan["done"]:
        return f"{key} is done: its records are in {study.records}"
    if key not in plan["run"]:
        return f"{key} is left for a later part (study.max_jobs={study.max_jobs})"
    return None


# --- the callback -------------------------------------------------------------------------------


# A part is one run of the study's command. Before any job starts (`on_multirun_start`) it says
# which of the sweep's jobs (arm x seed) are already done (their records are complete), which it
# will run (at most `study.max_jobs`, lowest seeds first) and which it leaves for a later part, and
# writes that plan into the sweep dir; a job that is not to run returns at once (`skip_reason`). A
# job cut off mid-run (the machine went away) left no records, so the next part runs it again from
# its start. `on_job_end` evaluates the job's final model with `watercolor.evaluate` into `<job
# dir>/evaluation` (an MLflow run named `evaluate-<the training run's name>`; the untrained model's
# is `evaluate-untrained`) and writes the job's records (`watercolor.analysis.records`: metric
# history, rollouts, the evaluation's per-sample table, the resolved config, the commit and config
# hash). `on_multirun_end` evaluates the untrained model once per study (the matrix's baseline row;
# the sweep's own model, renderer and task choices) and runs `watercolor.compare` over the records
# (or, without a records folder, over the sweep dir) into `<sweep dir>/compare`, unless
# `study.compare=false`.
#
# Every run and evaluation is tagged with its study (`study`: the records folder's id, else the
# sweep dir), so a study's analysis reads its own runs and its own baseline, never another's. Hydra
# turns an exception in a callback into a warning; a study must not end "successfully" without its
# evaluations, so every failure (a job that failed, an evaluation that raised) is written into the
# sweep dir and `on_multirun_end` exits non-zero with all of them.
class Study(Callback):
    """Plan the part, evaluate and record every job it runs, then the untrained model, then
    compare; exit non-zero if anything failed."""

    def __init__(
        self,
        num_prompts: int = STUDY_PROMPTS,  # a study's size: watercolor.config's, one source
        samples: int = STUDY_SAMPLES,
        seed: int = 0,
        rewards: Sequence[str] | None = None,
        overrides: Sequence[str] = (),
    ) -> None:
        self.num_prompts, self.samples, self.seed = num_prompts, samples, seed
        self.rewards = list(rewards) if rewards is not None else None
        # conf/evaluate.yaml overrides every evaluation of the study takes (after the job's own
        # choices), e.g. ["task.turns=2"]: every model's drafts and revisions, whatever its arm
        self.overrides = list(overrides)

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        try:
            HydraConfig.instance().set_config(config)  # ${hydra:...} in the paths group
            records_dir = config.study.records
            study_id(records_dir, config.hydra.sweep.dir)  # the first part names the study
            plan = make_plan(sweep_jobs(config), records_dir, config.study.max_jobs)
            sweep_dir = Path(config.hydra.sweep.dir)
            sweep_dir.mkdir(parents=True, exist_ok=True)
            (sweep_dir / PLAN_FILE).write_text(json.dumps(plan, indent=2) + "\n")
            print(describe(plan, records_dir), flush=True)
        except BaseException as exc:  # Hydra would only warn: stop the command instead
            _fail_now("planning the study", exc)

    def on_job_end(self, config: DictConfig, job_return: JobReturn, **kwargs: Any) -> None:
        hydra_node = job_return.hydra_cfg.hydra
        key = job_key(arm_of(hydra_node.runtime.choices), config.seed)
        sweep_dir = job_sweep_dir(hydra_node)
        plan_file = sweep_dir / PLAN_FILE
        if plan_file.is_file() and key not in json.loads(plan_file.read_text())["run"]:
            return  # skipped: done already, or left for a later part
        if job_return.status != JobStatus.COMPLETED:
            _record_failure(sweep_dir, key, f"training failed: {_error(job_return)}")
            return
        try:
            job_dir = Path(hydra_node.runtime.output_dir)
            overrides = [f"checkpoint={job_dir}", *shared_overrides(hydra_node)]
            name = f"evaluate-{trained_run_name(config, job_dir)}"
            self.evaluate(config, overrides, job_dir / "evaluation", sweep_dir, name)
            if config.study.records is not None:
                export_job(config, job_dir, config.study.records)
        except Exception:
            _record_failure(sweep_dir, key, traceback.format_exc())

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        # No job is running now, so Hydra has no config set: `${hydra:runtime.cwd}` (the paths
        # group) would not resolve. The sweep's own config is the one to resolve against.
        HydraConfig.instance().set_config(config)
        sweep_dir, records_dir = Path(config.hydra.sweep.dir), config.study.records
        try:
            self.untrained(config, sweep_dir, records_dir)
        except Exception:
            _record_failure(sweep_dir, UNTRAINED_KEY, traceback.format_exc())
        if config.study.compare:  # study.compare=false: a part that only trains and records
            try:
                self.compare(config, sweep_dir, records_dir)
            except BaseException:
                _record_failure(sweep_dir, "compare", traceback.format_exc())
        if failures := sorted((sweep_dir / FAILURES_DIR).glob("*.txt")):
            text = "\n".join(f"--- {f.stem}:\n{f.read_text()}" for f in failures)
            _fail_now(f"{len(failures)} part(s) of the study", RuntimeError(text))

    def untrained(self, config: DictConfig, sweep_dir: Path, records_dir: str | None) -> None:
        """Evaluate the untrained model once per study (and record it)."""
        if records_dir is not None and records.done(records_dir, UNTRAINED_KEY):
            log.info("study: the untrained model's evaluation is recorded already")
            return
        out_dir = sweep_dir / "untrained_evaluation"
        name = f"evaluate-{UNTRAINED_KEY}"
        self.evaluate(config, shared_overrides(config.hydra), out_dir, sweep_dir, name)
        if records_dir is not None:
            client = mlflow.MlflowClient(tracking_uri(config.tracking.uri))
            evaluation = client.get_run((out_dir / RUN_ID_FILE).read_text().strip())
            records.export(records.from_store(client, [], [evaluation]), records_dir)

    def compare(self, config: DictConfig, sweep_dir: Path, records_dir: str | None) -> None:
        # matplotlib and the canvas sources: only at the end
        from watercolor.analysis import comparison

        if records_dir is not None and not records.read(records_dir).runs:
            log.info("study: nothing to compare yet (no job's records in %s)", records_dir)
            return
        source = ["--records", records_dir] if records_dir is not None else [
            "--sweep-dir", str(sweep_dir), "--tracking-uri", config.tracking.uri,
            "--artifacts", config.tracking.artifacts]  # fmt: skip
        comparison.main([*source, "--out", str(sweep_dir / "compare")])

    def evaluate(
        self,
        config: DictConfig,
        overrides: list[str],
        out_dir: Path,
        sweep_dir: str | Path,
        run_name: str,
    ) -> None:
        """`watercolor.evaluate` with the study's settings into `out_dir`, tagged with its study
        and named `run_name` (in MLflow's UI; else every one would be "evaluate-evaluation")."""
        from watercolor.evaluation import (
            held_out,  # torch: in the job's process, not at Hydra's start
        )

        study = study_id(config.study.records, sweep_dir)
        overrides = [
            *overrides,
            f"num_prompts={self.num_prompts}", f"samples={self.samples}", f"seed={self.seed}",
            f"tracking.experiment={config.tracking.experiment}",
            f"tracking.uri={config.tracking.uri}",
            f"tracking.artifacts={config.tracking.artifacts}",
            f"paths.cache={config.paths.cache}",
            f"threads={'null' if config.threads is None else config.threads}",  # the job's own
            f"+tags.study={json.dumps(study)}",
            f"run_name={json.dumps(run_name)}",  # quoted: a training run's name has spaces
            *([f"rewards=[{','.join(self.rewards)}]"] if self.rewards is not None else []),
            *self.overrides,
        ]  # fmt: skip
        log.info("study: evaluating into %s", out_dir)
        held_out.run(compose_config("evaluate", overrides), out_dir)


def trained_run_name(config: DictConfig, job_dir: Path) -> str:
    """The MLflow name of the training run a job logged (e.g. "gated seed 0 2026-12-01 ...")."""
    client = mlflow.MlflowClient(tracking_uri(config.tracking.uri))
    return client.get_run((job_dir / RUN_ID_FILE).read_text().strip()).info.run_name


def export_job(config: DictConfig, job_dir: Path, records_dir: str | Path) -> Path:
    """Write the records of a finished, evaluated job (from the MLflow store it logged to)."""
    client = mlflow.MlflowClient(tracking_uri(config.tracking.uri))
    run = client.get_run((job_dir / RUN_ID_FILE).read_text().strip())
    evaluation = client.get_run((job_dir / "evaluation" / RUN_ID_FILE).read_text().strip())
    (written,) = records.export(records.from_store(client, [run], [evaluation]), records_dir)
    log.info("study: records of %s written to %s", job_dir.name, written)
    return written


def shared_overrides(hydra_node: DictConfig) -> list[str]:
    """The training job's choices (and `key=value` overrides) of the groups evaluation shares."""
    choices = hydra_node.runtime.choices
    picked = [f"{group}={choices[group]}" for group in SHARED_GROUPS if choices.get(group)]
    prefixes = tuple(f"{group}." for group in SHARED_GROUPS)  # model.dtype=..., not model=...
    return picked + [o for o in hydra_node.overrides.task if o.startswith(prefixes)]


def _error(job_return: JobReturn) -> str:
    try:
        _ = job_return.return_value  # a failed job's property raises the job's exception
    except Exception as exc:  # noqa: BLE001 - reported, not handled
        return f"{type(exc).__name__}: {exc}"
    return str(job_return.status)


def _record_failure(sweep_dir: str | Path, key: str, text: str) -> None:
    folder = Path(sweep_dir, FAILURES_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{key}.txt").write_text(text)
    log.error("study: %s failed:\n%s", key, text)


def _fail_now(what: str, exc: BaseException) -> None:
    """End the command with a non-zero status (Hydra turns a callback's exception into a
    warning; SystemExit is not an Exception, so it passes through)."""
    print(f"study: {what} failed: {exc}", file=sys.stderr, flush=True)
    raise SystemExit(1) from exc
