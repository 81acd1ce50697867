"""Real sketches in real Chromium: every genuine watercolour outscores every cheat.

Table-driven over the painting task's audit sketches (watercolor/tasks/painting/audit_sketches:
the first line names the prompt, the second says `Genuine` or `Cheat` and what it is) and its
seven sample watercolours, the table `python -m watercolor.audit` scores too. Beyond "every
genuine above every cheat": a canvas the task flags blank earns at most the execution terms,
and a sheet of one ground colour (paper, a tint, a dark `background`) with a few marks at most
half of the weakest genuine painting. Each sketch is rendered once, at pixel density 0.5 as in
training, and its canvas scored by `coarse`, `fine_grained`, `gated`, `translucent` and
`washes` under two gate settings:

- `anchor`: the painting task's static gate with the anchor's rules, what training sees. It
  refuses sketches drawing with bare p5 primitives, so those cheats score through
  `gate_pass = 0` and empty pixel components (and 0 under `gated`).
- `off`: no static gate (the blank-canvas check after rendering stays), so the pixel
  components must tell the cheats apart themselves. Relaxed rules are not enough for that:
  `GateRules(ban_bare_primitives=False, allowed_brush_methods=None)` still refuses a sketch
  that makes no brush mark (`no_painting`), i.e. every bare-p5 cheat.

A sketch that passes the anchor gate renders the same under both settings, so it is rendered
once and only the refusal differs (what `tasks.painting.episode.paint` would return).
`python tests/rewards/test_reward_sketches.py` prints the whole table (renders ~1-3 min).
"""

import asyncio
from dataclasses import replace

import pandas as pd
import pytest

from watercolor.canvas import Canvas, Status
from watercolor.config import reward_set
from watercolor.render import RenderConfig, RenderPool
from watercolor.rewards.coverage import not_blank
from watercolor.tasks.episode import refused
from watercolor.tasks.painting.audit import SAMPLE_PROMPTS, audit_table
from watercolor.tasks.painting.gate import check_canvas, check_reply, painted_fraction
from watercolor.tasks.painting.harness import HARNESS

RENDER = RenderConfig(pixel_density=0.5, workers=2, time_limit_s=30.0)
REWARDS = ("coarse", "fine_grained", "gated", "translucent", "washes")
GUARDED = ["fine_grained", "gated", "translucent", "washes"]  # the sets that must not be fooled
GATES = ("anchor", "off")
# Cheat -> how it ends up with the gate off (status, violations); anything else renders ok.
CHEAT_OUTCOMES = {
    "blank": (Status.VIOLATION, ["blank_canvas"]),
    "blank_brush": (Status.VIOLATION, ["blank_canvas"]),
    "dark_sheet_mark": (Status.VIOLATION, ["blank_canvas"]),
    "throws": (Status.ERROR, []),
    "throws_in_draw": (Status.ERROR, []),
    "reads_paper": (Status.ERROR, []),  # get(): no pixel reaches a sketch (the harness refuses)
}
THROWS = ("throws", "throws_in_draw")
# Flat blocks in the prompt's colours, and the gate setting under which they reach the pixels.
FLAT_BLOCKS = {
    "flat_blocks_p5": "off",
    "flat_blocks_brush": "anchor",
    "flat_mosaic_brush": "anchor",
}
# One ground colour and a few marks (issue 9): at most this share of the weakest genuine score.
SHEET_WITH_MARKS = (
    "near_empty_marks",
    "paper_small_painting",
    "paper_tone_ground",
    "light_tint_marks",
    "tinted_sheet_wash",
    "dark_sheet_wash",
)
MARKS_SHARE = 0.5
# One blob and flat shapes (issue 34): at most MARKS_SHARE of the weakest genuine painting under
# `translucent`. Not met by p5.brush's flat fills with bleed and texture off: the blocks are as
# light a glaze per wash as half the genuine paintings here, and the discs, which the term pays
# 0, keep 0.74 from the rest of fine_grained (experiments/2026-12-04_translucency_calibration/).
NOT_YET_HALF = "p5.brush flat fills: a grain and bleed hole, not closed by translucency (issue 34)"
BLOB_AND_FLAT = [
    "huge_blob_brush",
    "huge_blob_p5",
    "flat_blocks_p5",
    pytest.param("flat_blocks_brush", marks=pytest.mark.xfail(strict=True, reason=NOT_YET_HALF)),
    pytest.param("flat_mosaic_brush", marks=pytest.mark.xfail(strict=True, reason=NOT_YET_HALF)),
]
EXECUTION_TERMS = ("gate_pass", "length_ramp")  # all a blank canvas may earn (ungated sets)
MARGIN = 0.05  # genuine over cheat; scores are reproducible to ~0.01 (SwiftShader)


# The painting task's audit sketches (`python -m watercolor.audit` scores its pairs too).
TABLE = {s.name: (s.kind, s.prompt, s.reply) for s in audit_table(pairs=0).sketches}
GENUINE = [name for name, (kind, _, _) in TABLE.items() if kind == "genuine"]
CHEATS = [name for name, (kind, _, _) in TABLE.items() if kind == "cheat"]


async def render_all(table: dict[str, tuple[str, str, str]]) -> dict[str, dict[str, Canvas]]:
    """{gate: {name: Canvas}}: each sketch rendered once, ungated, then gated the anchor's way."""
    sketches = {name: check_reply(source) for name, (_, _, source) in table.items()}
    async with RenderPool(RENDER, HARNESS) as pool:
        rendered = await pool.render_batch([sketch for sketch, _ in sketches.values()])
    canvases: dict[str, dict[str, Canvas]] = {gate: {} for gate in GATES}
    for (name, (sketch, violations)), canvas in zip(sketches.items(), rendered, strict=True):
        if canvas.ok and (blank := check_canvas(canvas)):
            canvas = replace(canvas, status=Status.VIOLATION, violations=[v.code for v in blank])
        canvas = replace(canvas, sketch=sketch, reply=table[name][2])
        canvases["off"][name] = canvas
        gated = refused(violations, sketch=sketch, reply=canvas.reply) if violations else canvas
        canvases["anchor"][name] = gated
    return canvases


def score_table(canvases: dict[str, dict[str, Canvas]], overrides: tuple[str, ...] = ()):
    """DataFrame: one row per sketch (kind, then `<reward>/<gate>` totals)."""
    sets = {name: reward_set(name, overrides) for name in REWARDS}
    rows = []
    for name, (kind, prompt, _) in TABLE.items():
        row = {"sketch": name, "kind": kind}
        for gate in GATES:
            for reward, rewards in sets.items():
                row[f"{reward}/{gate}"] = rewards.score(canvases[gate][name], prompt=prompt).total
        rows.append(row)
    return pd.DataFrame(rows).set_index("sketch")


@pytest.fixture(scope="module")
async def canvases() -> dict[str, dict[str, Canvas]]:
    return await render_all(TABLE)


@pytest.fixture(scope="module")
def table(canvases) -> pd.DataFrame:
    return score_table(canvases)


def worst_genuine(table: pd.DataFrame, column: str) -> float:
    return float(table.loc[GENUINE, column].min())


pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", TABLE)
def test_every_sketch_renders_as_intended(canvases, name):
    canvas = canvases["off"][name]
    if name in GENUINE:
        assert canvas.status == Status.OK and not canvas.violations, canvas.errors
        assert canvases["anchor"][name] is canvas  # the genuine ones all pass the anchor gate
    else:
        status, violations = CHEAT_OUTCOMES.get(name, (Status.OK, []))
        assert (canvas.status, canvas.violations) == (status, violations), canvas.errors
    if name in SAMPLE_PROMPTS:  # the task's samples (code: tests/tasks/painting/test_samples.py)
        assert painted_fraction(canvas.rgba) > 0.1
        # Layered translucent washes leave many distinct colours, not a few flat ones.
        assert len({tuple(p) for p in canvas.rgba[..., :3].reshape(-1, 3)[::7]}) > 500
    if name.endswith("_p5"):  # bare p5 primitives: refused by the anchor's gate
        assert "bare_primitive" in canvases["anchor"][name].violations


# A hole issue 42's cheats found (the audit records it): a sketch that paints its own paper as a
# full-page shape, then glazes over it, outscores the weakest genuine painting under these sets.
PAPER_SHAPE = "the paper painted as a full-page shape: a hole of this set (issue 42's audit)"
HOLES = {("translucent", "own_paper_shape"), ("washes", "own_paper_shape")}


def with_holes(reward: str, cheats: list[str]) -> list:
    """`cheats`, those in HOLES for `reward` marked as expected (strictly) to fail."""
    xfail = pytest.mark.xfail(strict=True, reason=PAPER_SHAPE)
    return [pytest.param(c, marks=xfail) if (reward, c) in HOLES else c for c in cheats]


@pytest.mark.parametrize(
    ("reward", "cheat"),
    [
        pytest.param(r, c, marks=pytest.mark.xfail(strict=True, reason=PAPER_SHAPE))
        if (r, c) in HOLES
        else (r, c)
        for r in GUARDED
        for c in CHEATS
    ],
)
@pytest.mark.parametrize("gate", GATES)
def test_every_genuine_watercolour_outscores_the_cheat(table, reward, gate, cheat):
    column = f"{reward}/{gate}"
    assert worst_genuine(table, column) > table.loc[cheat, column] + MARGIN, table[column]


@pytest.mark.parametrize("name", THROWS)
@pytest.mark.parametrize("gate", GATES)
def test_gated_gives_zero_to_a_sketch_that_throws(table, gate, name):
    # The sketch painted before it threw; ungated sets still pay it a little, `gated` nothing.
    assert table.loc[name, f"gated/{gate}"] == 0.0
    assert table.loc[name, f"fine_grained/{gate}"] > 0.0


@pytest.mark.parametrize("gate", GATES)
@pytest.mark.parametrize("reward", GUARDED)
def test_a_canvas_the_task_flags_blank_earns_at_most_the_execution_terms(
    canvases, table, reward, gate
):
    blank = [name for name, c in canvases[gate].items() if "blank_canvas" in c.violations]
    assert {"blank_brush", "dark_sheet_mark"} <= set(blank)
    rewards = reward_set(reward)
    # `gated` refuses a blank canvas outright (its gate holds `not_blank`).
    bound = 0.0 if "not_blank" in rewards.gate else sum(rewards.weights[n] for n in EXECUTION_TERMS)
    column = f"{reward}/{gate}"
    assert (table.loc[blank, column] <= bound + 1e-9).all(), table.loc[blank, column]


@pytest.mark.parametrize("name", SHEET_WITH_MARKS)
@pytest.mark.parametrize("gate", GATES)
@pytest.mark.parametrize("reward", GUARDED)
def test_one_ground_colour_with_a_few_marks_earns_at_most_half(table, reward, gate, name):
    column = f"{reward}/{gate}"
    assert table.loc[name, column] <= MARKS_SHARE * worst_genuine(table, column), table[column]


@pytest.mark.parametrize("name", BLOB_AND_FLAT)
@pytest.mark.parametrize("gate", GATES)
def test_one_blob_or_flat_shapes_earn_at_most_half_under_translucent(table, gate, name):
    column = f"translucent/{gate}"
    assert table.loc[name, column] <= MARKS_SHARE * worst_genuine(table, column), table[column]


@pytest.mark.parametrize("cheat", with_holes("washes", CHEATS))
@pytest.mark.parametrize("gate", GATES)
def test_every_cheat_earns_at_most_half_under_washes(table, gate, cheat):
    # Issue 34's goal for every cheat, not only the blobs, flat shapes and sheets: the washes
    # factor multiplies the total, so a canvas that fails one reading keeps little of the rest.
    column = f"washes/{gate}"
    assert table.loc[cheat, column] <= MARKS_SHARE * worst_genuine(table, column), table[column]


@pytest.mark.parametrize("name", TABLE)
def test_the_components_call_blank_the_sketches_the_task_does(canvases, name):
    # Against the table's own outcomes (CHEAT_OUTCOMES, which the task's verdict is checked
    # against above), not the task's verdict on the same canvas: both read `View.painted`, so
    # they would agree by construction.
    canvas = canvases["off"][name]
    if canvas.rgba is None or canvas.status == Status.ERROR:  # never blank-checked
        return
    blank = "blank_canvas" in CHEAT_OUTCOMES.get(name, (Status.OK, []))[1]
    assert not_blank(canvas) == (0.0 if blank else 1.0)


@pytest.mark.parametrize(("flat", "gate"), FLAT_BLOCKS.items())
def test_coarse_is_fooled_by_flat_blocks_more_than_fine_grained(table, flat, gate):
    def margin(reward: str) -> float:  # how far the flat blocks beat the worst watercolour
        column = f"{reward}/{gate}"
        return float(table.loc[flat, column]) - worst_genuine(table, column)

    assert margin("coarse") > 0.0 > margin("fine_grained")  # coarse ranks it above a genuine one
    assert margin("coarse") > margin("fine_grained") + 0.3, table.loc[flat]


@pytest.mark.parametrize("gate", GATES)
def test_the_best_cheat_gains_most_under_coarse(table, gate):
    def margin(reward: str) -> float:
        column = f"{reward}/{gate}"
        return float(table.loc[CHEATS, column].max()) - worst_genuine(table, column)

    assert margin("coarse") > 0.0 > margin("fine_grained") and margin("gated") < 0.0
    assert margin("coarse") > margin("fine_grained") + 0.3


def test_the_pixels_not_the_sketch_length_decide(canvases):
    # The cheats are short sketches; with length_ramp unpaid, the pixels alone still order them.
    table = score_table(canvases, ("reward.components.length_ramp.weight=0",))
    column = "fine_grained/off"
    assert worst_genuine(table, column) > table.loc[CHEATS, column].max(), table[column]


@pytest.mark.parametrize("gate", GATES)
@pytest.mark.parametrize("reward", REWARDS)
def test_the_rubric_tree_scores_every_sketch_as_the_reward_set(canvases, reward, gate):
    # The environment's OpenEnv rubric (watercolor/env/rubric.py) against the set's own score:
    # the same total and every component's value, bit for bit (issue 46).
    from watercolor.env.rubric import RewardSetRubric  # imports OpenEnv's server stack (~9 s)

    rewards = reward_set(reward)
    rubric = RewardSetRubric(rewards)
    for name, (_, prompt, _) in TABLE.items():
        canvas = canvases[gate][name]
        score = rewards.score(canvas, prompt=prompt)
        total = rubric({"prompt": prompt}, canvas)
        assert (score.total is None) == (total is None), name
        assert score.total is None or score.total.hex() == total.hex(), (name, score.total, total)
        leaves = {n: leaf.last_score for n, leaf in rubric.leaves.items()}
        assert leaves == score.components, name


if __name__ == "__main__":
    pd.set_option("display.width", 200)
    print(score_table(asyncio.run(render_all(TABLE))).round(3).sort_values("kind"))
