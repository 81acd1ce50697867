"""`watercolor.evaluation.held_out` (`python -m watercolor.evaluate`): sample the tiny smoke model,
render for real, score with every set."""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path

import mlflow
import pandas as pd
import pytest
import synthetic_canvases as synthetic
import torch

from watercolor.analysis.behaviour import BEHAVIOURS
from watercolor.canvas import Canvas, Status
from watercolor.config import reward_set_names
from watercolor.cores import torch_threads
from watercolor.evaluation.held_out import (
    evaluate_model,
    load_reward_sets,
    resolve_checkpoint,
    summarise,
    write_report,
)
from watercolor.evaluation.sampling import (
    EvaluationSpec,
    Sample,
    generate_samples,
    paint_replies,
    save_canvases,
    score_rows,
)
from watercolor.policy.loading import load_policy
from watercolor.render.pool import RenderConfig
from watercolor.render.renderers import LocalRenderer
from watercolor.tasks.painting import sample_sketches
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.harness import HARNESS
from watercolor.tasks.painting.painter.tiny import SMOKE, ensure_tiny_model
from watercolor.tasks.painting.prompts import prompts
from watercolor.tasks.painting.style import style_measures

REPO = Path(__file__).resolve().parents[2]
REWARD_SETS = reward_set_names(offline=True, task="painting")  # the offline sets made for it
# (composed task, a set it names, the task that set is made for)
OTHER_TASKS_SETS = [("painting", "svg_fine", "svg"), ("svg", "coarse", "painting")]
RENDER = RenderConfig(pixel_density=0.5, time_limit_s=15.0)


@pytest.fixture(scope="module")
def smoke_model():
    """The cached smoke-scale tiny painter (built on first use, ~1 min)."""
    return ensure_tiny_model(SMOKE, cache_root=REPO / "outputs" / "cache", progress=False)


@pytest.fixture(scope="module")
def reward_sets():
    return load_reward_sets("painting")


def test_every_offline_reward_set_of_the_task_is_loaded(reward_sets):
    assert sorted(reward_sets) == REWARD_SETS and {"coarse", "fine_grained", "gated"} <= set(
        reward_sets
    )
    assert not {"svg_coarse", "svg_fine"} & set(reward_sets)  # the SVG task's
    assert sorted(load_reward_sets("svg")) == ["svg_coarse", "svg_fine"]
    assert list(load_reward_sets("painting", ["gated"])) == ["gated"]
    assert list(load_reward_sets("painting", "gated")) == ["gated"]  # rewards=gated, no list


@pytest.mark.parametrize(("task", "named", "made_for"), OTHER_TASKS_SETS)
def test_a_named_reward_set_of_another_task_is_refused(task, named, made_for):
    message = f"reward set '{named}' scores the '{made_for}' task, not the composed task '{task}'"
    with pytest.raises(ValueError, match=message):
        load_reward_sets(task, [named])


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_sampling_is_seeded_per_prompt(smoke_model):
    model, tokenizer = load_policy(smoke_model)
    a, b = prompts("heldout")[:2]

    def replies(asked, seed=0):
        found = generate_samples(model, tokenizer, asked, samples=2, seed=seed,
                                 generation={"max_new_tokens": 24}, progress=False)  # fmt: skip
        return [s.reply for s in found if s.prompt == b]

    assert replies([a, b]) == replies([b])  # b's replies do not depend on what else is asked
    assert replies([b], seed=1) != replies([b])


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_thread_count_samples_the_same_replies(smoke_model):
    """`threads` (conf/machine/default.yaml: 1) only orders float sums: on 1 and 2 threads the
    same seed and weights give next-token distributions equal within rounding and the same
    replies."""
    model, tokenizer = load_policy(smoke_model)

    def replies(threads):
        found = generate_samples(model, tokenizer, prompts("heldout")[:2], samples=2, seed=0,
                                 generation={"max_new_tokens": 48}, threads=threads,
                                 progress=False)  # fmt: skip
        return [s.reply for s in found]

    def distributions(threads, ids):
        with torch_threads(threads), torch.no_grad():
            return torch.softmax(model(ids).logits.float(), dim=-1)

    one = replies(1)
    assert one == replies(2)
    ids = tokenizer(one[0], return_tensors="pt").input_ids
    torch.testing.assert_close(distributions(1, ids), distributions(2, ids), rtol=0, atol=1e-5)


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
@pytest.mark.browser
def test_evaluate_the_tiny_model_scores_every_sample_under_every_set(smoke_model, reward_sets,
                                                                     tmp_path):  # fmt: skip
    spec = EvaluationSpec.configured(
        samples=2, seed=0, generation={"max_new_tokens": 160}, render=RENDER, progress=False
    )
    table = evaluate_model(smoke_model, prompts("heldout")[:2], reward_sets, spec,
                           canvas_dir=tmp_path / "canvases")  # fmt: skip
    assert len(table) == 4 and list(table["sample"]) == [0, 1, 0, 1]
    totals = {column for column in table.columns if column.startswith("total/")}
    assert totals == {f"total/{name}" for name in REWARD_SETS}  # the painting task's sets only
    assert {"gated/clean_run", "fine_grained/translucent_layering", "coarse/palette_match"} <= set(
        table.columns
    )
    assert set(table["status"]) <= {str(s) for s in Status} - {str(Status.INFRA_ERROR)}
    refused = table["status"] != str(Status.OK)
    assert (table.loc[refused, "total/gated"] == 0).all()  # the hard gate
    assert (table["completion_tokens"] <= 160).all()
    assert len(list((tmp_path / "canvases").glob("*.js"))) == 4

    summary = write_report(table, tmp_path, "tiny smoke", tmp_path / "canvases")
    assert {f"total/{name}" for name in REWARD_SETS} <= set(summary)
    assert summary["samples"] == 4 and 0 <= summary["execution_rate"] <= 1
    assert pd.read_parquet(tmp_path / "samples.parquet").shape == table.shape
    assert len(pd.read_csv(tmp_path / "samples.csv")) == 4
    page = (tmp_path / "gallery.html").read_text()
    assert all(prompt in page for prompt in table["prompt"])


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
@pytest.mark.browser
def test_evaluation_paints_the_second_paper_a_set_reads(reward_sets):
    """show_through reads opacity from a second paper: evaluation paints it when that set is
    among those scoring (`Task.painting_for`), and not otherwise."""
    reply = f"```js\n{sample_sketches()['hibiscus']}\n```"
    samples = [Sample(0, "paint a red poppy", 0, reply, 100, False)]
    spec = EvaluationSpec.configured(render=RENDER, progress=False)
    (twinned,) = spec.paint(samples, [reward_sets["show_through"]])
    assert twinned.ok and twinned.twin_paper == reward_sets["show_through"].second_paper
    (alone,) = spec.paint(samples, [reward_sets["fine_grained"]])
    assert alone.ok and alone.twin is None


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
@pytest.mark.browser
def test_painted_canvases_reach_the_summary_and_the_gallery(reward_sets, tmp_path):
    sketches = sample_sketches()
    p0, p1 = "paint an olive pear in watercolour", "paint a coral koi fish in watercolour"
    samples = [
        Sample(0, p0, 0, f"```js\n{sketches['pears']}\n```", 900, False),
        Sample(0, p0, 1, f"```js\n{sketches['koi']}\n```", 900, False),
        Sample(1, p1, 0, "I would rather not paint today.", 8, False),
    ]
    renderer = LocalRenderer(RENDER, paint, HARNESS)
    canvases = asyncio.run(paint_replies([s.reply for s in samples], renderer, progress=False))
    assert renderer.pool is None  # closed after the batch
    table = pd.DataFrame(score_rows(samples, canvases, reward_sets, style_measures))
    table.insert(1, "image", save_canvases(samples, canvases, tmp_path / "canvases", ".js"))
    summary = write_report(table, tmp_path, "samples", tmp_path / "canvases")

    assert list(table["status"]) == ["ok", "ok", "violation"]
    assert summary["execution_rate"] == pytest.approx(2 / 3)
    assert summary["violations/no_sketch"] == pytest.approx(1 / 3)
    assert summary["layering"] > 0 and 0 <= summary["flat_block_rate"] <= 1
    assert summary["clean_run_rate"] == pytest.approx(2 / 3)
    assert set(BEHAVIOURS) <= set(summary) and summary["style/washes"] > 0
    assert summary["diversity"] > 0  # two different paintings of one prompt
    assert summary["total/gated"] > 0 and table["total/gated"].iloc[2] == 0
    page = (tmp_path / "gallery.html").read_text()
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == 2 and all((tmp_path / src).is_file() for src in images)
    assert "no_sketch" in page and p1 in page
    # the compact parquet (records.write_table) gives back the scored table as it was
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "samples.parquet"), table)


def test_behaviour_columns_and_their_means_reach_the_summary():
    """Synthetic canvases (no browser): every `BEHAVIOURS` column is written per sample and its
    summary metric is the mean over the rows where it is not NaN."""
    flat = "```js\nbrush.fill(232, 102, 90, 255);\nbrush.circle(0, 0, 99);\n```"
    washes = "```js\nbrush.fill(232, 102, 90, 80);\nbrush.circle(0, 0, 99);\n```"
    p0, p1 = "paint a coral poppy in watercolour", "paint a blue bird in watercolour"
    samples = [Sample(0, p0, 0, washes, 300, False), Sample(0, p0, 1, flat, 200, False),
               Sample(1, p1, 0, "function setup() {", 384, True)]  # fmt: skip
    canvases = [synthetic.layered_watercolour(), synthetic.flat_blocks(),
                Canvas(Status.VIOLATION, violations=["truncated"], errors=["cut off"])]  # fmt: skip
    table = pd.DataFrame(score_rows(samples, canvases, load_reward_sets("painting", ["gated"]),
                                 style_measures))  # fmt: skip
    assert set(BEHAVIOURS.values()) <= set(table.columns)
    assert list(table["flat_block"].iloc[:2]) == [0.0, 1.0] and math.isnan(table["flat_block"][2])
    assert math.isnan(table["diversity"][2]) and math.isnan(table["style/mean_alpha"][2])
    assert list(table["style/flat_style"].iloc[:2]) == [0.0, 1.0]

    summary = summarise(table)
    assert summary["execution_rate"] == summary["clean_run_rate"] == pytest.approx(2 / 3)
    assert summary["truncated_rate"] == pytest.approx(1 / 3)
    assert summary["flat_block_rate"] == summary["style/flat_style"] == 0.5  # of the painted
    assert summary["style/mean_alpha"] == pytest.approx((80 + 255) / 2)
    assert summary["completion_tokens"] == pytest.approx(884 / 3)
    assert summary["diversity"] == pytest.approx(table["diversity"].iloc[:2].mean())
    assert summary["violations/truncated"] == pytest.approx(1 / 3)


def test_checkpoints_resolve_from_run_dirs_run_ids_and_hub_ids(tmp_path, monkeypatch):
    run_dir = tmp_path / "run"
    (run_dir / "final").mkdir(parents=True)
    (run_dir / "mlflow_run_id").write_text("0" * 32)
    assert resolve_checkpoint(str(run_dir), tmp_path) == (str(run_dir / "final"), "0" * 32)
    assert resolve_checkpoint("Qwen/Qwen3.5-4B", tmp_path) == ("Qwen/Qwen3.5-4B", None)

    uri = f"sqlite:///{tmp_path}/mlflow.db"  # a fresh store of its own
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    mlflow.set_tracking_uri(uri)
    experiment = mlflow.create_experiment("checkpoints", (tmp_path / "artifacts").as_uri())
    with mlflow.start_run(experiment_id=experiment) as run:
        mlflow.log_text("{}", "final_model/config.json")
    run_id = run.info.run_id
    path, source = resolve_checkpoint(run_id, tmp_path / "downloads")
    assert source == run_id and Path(path) == tmp_path / "downloads" / run_id / "final_model"
    assert (Path(path) / "config.json").is_file()
