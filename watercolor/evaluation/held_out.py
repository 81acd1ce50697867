"""One evaluation job: a model's replies to held-out prompts, painted, scored by every reward set
made for its task (or the sets it names), written as samples.csv/parquet, summary.json and
gallery.html and logged as a `kind=evaluate` MLflow run (`python -m watercolor.evaluate` composes
conf/evaluate.yaml and calls `run`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import mlflow
import pandas as pd
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from watercolor import config
from watercolor.analysis.behaviour import nanmean, summarise_behaviour
from watercolor.analysis.gallery import gallery_html
from watercolor.analysis.provenance import weights_fingerprint
from watercolor.analysis.records import store_config, write_table
from watercolor.analysis.revision_stats import revision_measures
from watercolor.canvas import Status
from watercolor.evaluation.eval_settings import MLFLOW_RUN_ID, reward_names
from watercolor.evaluation.revisions import evaluate_revisions
from watercolor.evaluation.sampling import EvaluationSpec, save_canvases
from watercolor.policy.builder import BUILD_INFO
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks import build_task
from watercolor.tracking import RUN_ID_FILE, flatten, mlflow_run, use_store


def load_reward_sets(task: str, names: str | Sequence[str] | None = None) -> dict[str, RewardSet]:
    """Reward sets of conf/reward/ by name (a list, or one name), to score the canvases of the
    task named `task` (`Task.name`); a set made for another task is refused (ValueError). When
    `names` is None, every set made for the task that scores offline (declares no `needs`: no
    HPSv3 model, no judge server)."""
    named = reward_names(names)
    sets = {n: config.reward_set(n) for n in named} or config.reward_sets(offline=True, task=task)
    for name, rewards in sets.items():
        config.check_reward_task(name, rewards.task, task)
    return sets


def resolve_checkpoint(source: str, download_root: str | Path) -> tuple[str, str | None]:
    """(model path or hub id, training run id or None) for a run dir, final/ dir, run id or hub id.

    A run id (32 hex digits) is read from the active tracking store: its `final_model`
    artifact is downloaded once into `download_root/<run id>/`.
    """
    path = Path(source)
    if path.is_dir():
        if (path / "final").is_dir():  # a training run's Hydra output dir
            path = path / "final"
        return str(path), _run_id_beside(path)
    if MLFLOW_RUN_ID.fullmatch(source):
        target = Path(download_root, source)
        if not (target / "final_model").is_dir():
            target.mkdir(parents=True, exist_ok=True)
            mlflow.artifacts.download_artifacts(
                run_id=source, artifact_path="final_model", dst_path=str(target)
            )
        return str(target / "final_model"), source
    return source, None  # a hub id


def feedback_rewards(
    name: str | None, model_path: str, source_run: str | None
) -> tuple[str, RewardSet]:
    """The reward set whose components a revising model's feedback names, and its name.

    `name` (a set in conf/reward/) when given; else the one the model was trained with: its
    training run's (`source_run`: the resolved `reward` of the config.yaml the run logged, so
    its overrides count too; the run's `reward` tag when it logged none), else the one a built
    revising painter's records were scored with (`feedback_reward` in its build info,
    `watercolor.tasks.painting.painter.tiny_revise`), else conf/train.yaml's default.
    """
    if name:
        return name, config.reward_set(name)
    if source_run:
        run = mlflow.get_run(source_run)
        trained = run.data.tags.get("reward") or config.default_option("reward")
        if text := store_config(mlflow.MlflowClient(), source_run):
            return trained, instantiate(OmegaConf.create(text).reward)
        return trained, config.reward_set(trained)
    built = Path(model_path, BUILD_INFO)
    info = json.loads(built.read_text()) if built.is_file() else {}
    name = info.get("config", {}).get("feedback_reward") or config.default_option("reward")
    return name, config.reward_set(name)


def _run_id_beside(path: Path) -> str | None:
    """The MLflow run id a training job wrote next to its checkpoints (or None)."""
    for folder in (path, path.parent):
        if (folder / RUN_ID_FILE).is_file():
            return (folder / RUN_ID_FILE).read_text().strip()
    return None


def evaluate_model(
    model_path: str | Path,
    prompts: Sequence[str],
    reward_sets: Mapping[str, RewardSet],
    spec: EvaluationSpec,
    canvas_dir: str | Path | None = None,
) -> pd.DataFrame:
    """Sample `spec.samples` replies per prompt, render each once, score with every reward set
    (`spec`: the task, renderer and sampling settings). `canvas_dir`: where to write each canvas
    PNG and sketch, with the task's file suffix (the `image` column names them)."""
    model, tokenizer = spec.load(model_path)
    replies = spec.generate(model, tokenizer, prompts, spec.samples)
    del model  # free its memory before Chromium starts
    canvases = spec.paint(replies, reward_sets.values())
    table = pd.DataFrame(spec.rows(replies, canvases, reward_sets))
    if canvas_dir is not None:
        suffix = spec.task.suffix
        table.insert(1, "image", save_canvases(replies, canvases, Path(canvas_dir), suffix))
    return table


def summarise(table: pd.DataFrame) -> dict[str, float]:
    """Means per reward set, status and violation rates, and every behaviour of `BEHAVIOURS`.

    A behaviour metric is the mean of its per-sample column where that is not NaN, so the
    painted-only ones (flat-block rate, layering, diversity, style) are over painted canvases.
    """
    summary = {
        "samples": float(len(table)),
        "infra_failure_rate": float((table["status"] == str(Status.INFRA_ERROR)).mean()),
    } | summarise_behaviour(table)
    for column in (c for c in table.columns if c.startswith("total/")):
        summary[column] = nanmean(table[column])
    for status in sorted(set(table["status"])):
        summary[f"status/{status}"] = float((table["status"] == status).mean())
    found = table["violations"].map(lambda text: set(filter(None, text.split(","))))
    for code in sorted(set().union(*found)):
        summary[f"violations/{code}"] = float(found.map(lambda codes, c=code: c in codes).mean())
    return summary


def sample_cards(table: pd.DataFrame, image_prefix: str) -> list[tuple[str, list[dict]]]:
    """Gallery sections of an evaluation table: one per prompt, one card per sample."""
    totals = [c for c in table.columns if c.startswith("total/")]
    sections = []
    for prompt, rows in table.groupby("prompt", sort=False):
        cards = []
        for row in rows.to_dict("records"):
            scores = ", ".join(f"{c.removeprefix('total/')} {_fmt(row[c])}" for c in totals)
            image = row.get("image")
            cards.append({
                "image": f"{image_prefix}/{image}" if isinstance(image, str) else None,
                "placeholder": row["status"],
                "caption": f"sample {row['sample']}: {row['status']}",
                "lines": [scores, row["violations"] or "no violations",
                          f"{row['completion_tokens']} tokens"],
            })  # fmt: skip
        sections.append((prompt, cards))
    return sections


def _fmt(value) -> str:
    return "n/a" if value is None or pd.isna(value) else f"{value:.3f}"


def write_report(table: pd.DataFrame, out_dir: Path, title: str, canvas_dir: Path) -> dict:
    """samples.csv, samples.parquet, summary.json and gallery.html in `out_dir`; the summary."""
    out_dir.mkdir(parents=True, exist_ok=True)
    table.to_csv(out_dir / "samples.csv", index=False)
    write_table(table, out_dir / "samples.parquet")
    summary = summarise(table)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    prefix = canvas_dir.resolve().relative_to(out_dir.resolve()).as_posix()
    (out_dir / "gallery.html").write_text(gallery_html(title, sample_cards(table, prefix)))
    return summary


def run(cfg: DictConfig, out_dir: Path) -> dict[str, float]:
    """The evaluation `cfg` (conf/evaluate.yaml, composed) describes, written into `out_dir`
    and logged as a `kind=evaluate` MLflow run; its summary. `watercolor.training.study` calls it
    too."""
    use_store(cfg.tracking.uri)
    if cfg.checkpoint is None:
        model_path, source_run = config.model_source(cfg.model), None
    else:
        model_path, source_run = resolve_checkpoint(str(cfg.checkpoint), cfg.paths.downloads)
    task = build_task(cfg.task)
    prompts = task.eval_prompts[: cfg.num_prompts]
    reward_sets = load_reward_sets(task.name, cfg.rewards)
    plain = OmegaConf.to_container(cfg, resolve=True)
    spec = EvaluationSpec(
        task=task, render=instantiate(cfg.renderer), samples=cfg.samples, seed=cfg.seed,
        generation=plain["generation"], chat_template_kwargs=plain["chat_template_kwargs"],
        dtype=cfg.model.dtype, threads=cfg.threads,
    )  # fmt: skip
    tags = {"kind": "evaluate", "source": str(cfg.checkpoint or model_path)} | dict(cfg.tags)
    tags |= {"source_run_id": source_run} if source_run else {}
    if task.turns > 1:
        feedback = feedback_rewards(cfg.feedback_reward, model_path, source_run)
        tags["feedback_reward"] = feedback[0]  # the set the feedback named
        summary = evaluate_revising(model_path, prompts, reward_sets, feedback[1], out_dir,
                                    spec)  # fmt: skip
    else:
        table = evaluate_model(model_path, prompts, reward_sets, spec, out_dir / "canvases")
        summary = write_report(table, out_dir, f"evaluate {model_path}", out_dir / "canvases")
    params = flatten(plain) | {"model_path": model_path, "weights": weights_fingerprint(model_path)}
    with mlflow_run(
        cfg.tracking.uri, cfg.tracking.experiment, params=params, tags=tags, run_dir=out_dir,
        artifact_root=cfg.tracking.artifacts, run_name=evaluation_run_name(cfg, out_dir),
    ):  # fmt: skip
        mlflow.log_metrics({k: v for k, v in summary.items() if v == v})  # NaN: not logged
        mlflow.log_artifacts(str(out_dir))
    print(pd.Series(summary).to_string(float_format="%.3f"))
    print(f"written to {out_dir}")
    return summary


def evaluate_revising(model_path, prompts, reward_sets, feedback_set: RewardSet, out_dir: Path,
                      spec: EvaluationSpec) -> dict:  # fmt: skip
    """`task.turns` > 1: drafts, controls and revisions (`watercolor.evaluation.revisions`), the
    feedback
    naming the components of `feedback_set` (`feedback_rewards`: the model's own), written as
    samples.csv/parquet and revision.json (each measure with its CI, per reward set); the
    summary of the drafts plus every measure's mean as `revision/<set>/<measure>`."""
    table = evaluate_revisions(model_path, prompts, reward_sets, spec, feedback_set)
    out_dir.mkdir(parents=True, exist_ok=True)
    table.to_csv(out_dir / "samples.csv", index=False)
    write_table(table, out_dir / "samples.parquet")
    measures = {name: revision_measures(table, name) for name in reward_sets}
    report = {name: {m: vars(e) for m, e in found.items()} for name, found in measures.items()}
    (out_dir / "revision.json").write_text(json.dumps(report, indent=2))
    summary = summarise(table[table["role"] == "draft"])
    for name, found in measures.items():
        summary |= {f"revision/{name}/{m}": e.mean for m, e in found.items()}
    return summary


def evaluation_run_name(cfg: DictConfig, out_dir: Path) -> str:
    """How the MLflow UI lists the evaluation: `run_name` when set (a study names each after
    the run it evaluates), else after its output dir (a timestamp for a plain run)."""
    return cfg.run_name or f"evaluate-{out_dir.name}"
