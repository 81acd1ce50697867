"""The SVG task composes from its config alone, picks its own painter and reward set, and its
document-reading components and painter names behave (no browser: svg/test_harness.py has those)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hydra.utils import instantiate

from watercolor.canvas import Canvas, Status
from watercolor.config import compose_config, compose_train
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks import build_task
from watercolor.tasks.svg import painter
from watercolor.tasks.svg.corpus import KINDS, Mixture, generate_corpus, make_example
from watercolor.tasks.svg.prompts import prompts
from watercolor.tasks.svg.rewards import composition, exact_colour, shapes, translucent_shapes

DOC = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600">
  <rect width="600" height="600" fill="#fbf8f1"/>
  <g opacity="0.5" fill-opacity="0.8"><circle cx="150" cy="150" r="90"/>
    <circle cx="350" cy="150" r="90" fill-opacity="1"/></g>
  <path d="M0 0L90 90" style="fill:#f00; fill-opacity: 0.3"/><text>not a shape</text>
</svg>"""


def choices(*overrides: str, name: str = "train") -> dict[str, str]:
    cfg = compose_config(name, list(overrides), return_hydra_config=True)
    return {k: cfg.hydra.runtime.choices[k] for k in ("task", "model", "reward")}


def test_task_svg_picks_its_own_painter_and_reward_set_and_the_command_line_still_wins():
    assert choices() == {"task": "painting", "model": "tiny", "reward": "fine_grained"}
    assert choices("task=svg") == {"task": "svg", "model": "svg_tiny", "reward": "svg_fine"}
    chosen = choices("task=svg", "reward=svg_coarse", "model=qwen3_5_4b")
    assert chosen == {"task": "svg", "model": "qwen3_5_4b", "reward": "svg_coarse"}
    assert choices("task=svg", "debug=smoke")["model"] == "svg_smoke"
    assert choices("debug=smoke")["model"] == "painting_smoke"  # tiny_smoke, under its task's name
    assert choices("debug=smoke", "model=tiny")["model"] == "tiny"
    assert choices("task=svg", name="evaluate")["model"] == "svg_tiny"


def test_score_defaults_to_the_reward_set_training_composes_for_the_task():
    from watercolor import score

    for argv, expected in (
        (["s.svg", "--set", "task=svg"], "svg_fine"),
        (["s.js"], "fine_grained"),
        (["s.svg", "--set", "task=svg", "--reward", "svg_coarse"], "svg_coarse"),
    ):
        cfg = score.composed(score.parse_args(argv))
        assert set(cfg.reward.components) == set(
            compose_train([f"reward={expected}"]).reward.components
        )


def test_the_smoke_painters_are_each_tasks_own():
    from watercolor.tasks.painting.painter.tiny import SMOKE as PAINTING_SMOKE

    smoke = compose_train(["debug=smoke"]).model.name_or_path.config
    assert instantiate(smoke) == PAINTING_SMOKE
    svg = compose_train(["task=svg", "debug=smoke"]).model.name_or_path.config
    assert instantiate(svg) == painter.SMOKE


def test_the_task_config_builds_an_svg_task():
    task = build_task(compose_train(["task=svg"]).task)
    assert task.suffix == ".svg" and task.harness.name == "svg"
    assert task.train_prompts == prompts("train") and task.eval_prompts == prompts("heldout")
    assert not set(task.train_prompts) & set(task.eval_prompts)
    assert task.conversation(task.train_prompts[0])[0]["content"].startswith("You draw")
    assert task.episode.keywords["rules"].max_chars > 0
    measures = task.style(f"```svg\n{DOC}\n```")  # code-read style columns of its evaluations
    assert measures == {"style/mean_opacity": pytest.approx((1.0 + 0.4 + 0.5 + 0.3) / 4),
                        "style/see_through_share": 0.75, "style/shapes": 4.0}  # fmt: skip


def test_shapes_reads_effective_fill_opacity_through_groups_and_styles():
    # group opacity multiplies; fill-opacity is inherited and a child's own wins; text is no shape
    assert shapes(DOC) == pytest.approx([1.0, 0.4, 0.5, 0.3])
    assert shapes("function setup() {}") == []  # not XML: another task's sketch


def painted(document: str, ok: bool = True, colour=(200, 90, 80)) -> Canvas:
    import io

    import numpy as np
    from PIL import Image

    pixels = np.full((60, 60, 3), 250, np.uint8)
    pixels[10:50, 10:50] = colour  # a patch of paint on the sheet
    png = io.BytesIO()
    Image.fromarray(pixels).save(png, format="PNG")
    status = Status.OK if ok else Status.VIOLATION
    return Canvas(status, png=png.getvalue() if ok else None, sketch=document)


def test_the_document_components_pay_translucent_shapes_and_several_of_them():
    canvas = painted(DOC)
    assert translucent_shapes(canvas) == pytest.approx(3 / 4)  # 0.4, 0.5 and 0.3, not the sheet
    assert translucent_shapes(canvas, low=0.35) == pytest.approx(2 / 4)
    assert composition(canvas, few=2, many=10) == pytest.approx(2 / 8)
    assert translucent_shapes(painted(DOC, ok=False)) == composition(painted(DOC, ok=False)) == 0
    failed = Canvas(Status.INFRA_ERROR, sketch=DOC)
    assert translucent_shapes(failed) is None and composition(failed) is None


def test_exact_colour_pays_paint_of_the_prompts_own_hex_only():
    coral = "draw a coral fox as an SVG illustration"  # coral: #f07860 in COLOUR_NAMES
    assert exact_colour(painted(DOC, colour=(0xF0, 0x78, 0x60)), prompt=coral) == 1.0
    near = exact_colour(painted(DOC, colour=(0xF0, 0x80, 0x68)), prompt=coral)
    assert near == 1.0  # within the tolerance
    assert exact_colour(painted(DOC, colour=(0xF8, 0xC0, 0xB0)), prompt=coral) == 0.0  # a glaze
    assert exact_colour(painted(DOC, colour=(0x2A, 0x8A, 0x8A)), prompt=coral) == 0.0  # teal
    assert exact_colour(Canvas(Status.INFRA_ERROR), prompt=coral) is None


def test_the_corpus_has_every_kind_and_is_seeded():
    corpus = generate_corpus(120, 0, Mixture(), prompts())
    assert {e.kind for e in corpus} == set(KINDS)
    assert corpus == generate_corpus(120, 0, Mixture(), prompts())
    assert corpus != generate_corpus(120, 1, Mixture(), prompts())
    layered = make_example("layered", prompts()[0], __import__("random").Random(3))
    assert len(shapes(layered.reply.split("\n", 1)[1].rsplit("\n", 1)[0])) >= 6


def test_a_painter_is_named_by_its_config_and_records(monkeypatch):
    name = painter.config_hash(painter.SMOKE)
    assert painter.cache_dir(painter.SMOKE, "c").name == f"svg-tiny-{name}"
    assert name != painter.config_hash(replace(painter.SMOKE, corpus_seed=1))  # other records
    assert name != painter.config_hash(replace(painter.SMOKE, steps=41))
    real = painter.generate_corpus

    def one_reply_changed(*args):
        examples = real(*args)
        return [replace(examples[0], reply=examples[0].reply + " "), *examples[1:]]

    monkeypatch.setattr(painter, "generate_corpus", one_reply_changed)  # same config, new records
    assert painter.config_hash(painter.SMOKE) != name


@pytest.mark.parametrize("name", ["svg_coarse", "svg_fine"])
def test_the_svg_reward_sets_weigh_to_one(name):
    rewards: RewardSet = instantiate(compose_train([f"reward={name}"]).reward)
    assert sum(rewards.weights.values()) == pytest.approx(1.0)


@pytest.mark.browser
def test_the_two_svg_sets_disagree_on_the_corpus_kinds():
    # What the smoke comparison needs: svg_coarse pays a solid block of the prompt's colour more
    # than layered glazes of it, svg_fine the other way round, each by the margin stated here.
    import asyncio
    import random
    import statistics

    from watercolor.render.renderers import LocalRenderer

    cfg = compose_train(["task=svg", "renderer.pixel_density=0.5", "renderer.workers=1"])
    task = build_task(cfg.task)
    examples = [
        make_example(kind, prompts()[i * 37 % 288], random.Random(f"pay:{kind}:{i}"))
        for kind in ("layered", "flat_block")
        for i in range(6)
    ]

    async def paint():
        renderer = LocalRenderer(instantiate(cfg.renderer), task.episode, task.harness)
        try:
            return await asyncio.gather(*(renderer(e.reply, 0) for e in examples))
        finally:
            await renderer.close()

    canvases = asyncio.run(paint())
    assert all(c.ok for c in canvases), [c.errors for c in canvases]
    pay = {}
    for name in ("svg_coarse", "svg_fine"):
        rewards = instantiate(compose_train([f"reward={name}"]).reward)
        for kind in ("layered", "flat_block"):
            totals = [
                rewards.score(c, prompt=e.prompt).total
                for e, c in zip(examples, canvases, strict=True)
                if e.kind == kind
            ]
            pay[name, kind] = statistics.mean(totals)
    assert pay["svg_coarse", "flat_block"] > pay["svg_coarse", "layered"] + 0.05, pay
    assert pay["svg_fine", "layered"] > pay["svg_fine", "flat_block"] + 0.25, pay
