"""`python -m watercolor.audit`: every shipped offline reward set's audit, and the verdict each
gets today.

Each task's table is rendered once (a module fixture, real Chromium, training's renderer) and
scored by every offline set of the task, as the command scores one. The expected failures are
what each set gets today, measured, not what it should get: a change to a set, a component or
the table that moves a verdict fails here, and the line to change is the set's below (with the
README's excerpt if it moves). SVG's table renders in seconds (fast tier); painting's takes
minutes (slow tier).
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from watercolor import audit
from watercolor.analysis.audit_verdicts import Margins, audit_lines
from watercolor.config import compose_train, reward_set, reward_sets
from watercolor.render import options
from watercolor.rewards.reward_set import second_paper
from watercolor.tasks import build_task

# Set -> the lines that fail today (cheats by name, pair kinds by twin), measured 2026-12-05.
# Margins: a cheat earns at most half of the weakest genuine painting; a pair kind's 95 % CI of
# mean(reference - twin) lies above 0. Every other line passes.
FLAT_FILLS = {"flat_blocks_brush", "flat_mosaic_brush", "translucent_brush_plain"}
BRUSH_WASHES = {"huge_wash_brush", "brush_ground_wash"}
THROWS = {"throws", "throws_in_draw"}
# Cheats added for issue 42: pale opaque fills, one translucent sheet over the page, translucent
# dots, translucent layers stacked to opaque, the paper painted as a full-page shape, a sketch
# that reads its paper back (refused by the harness: it throws).
PALE_AND_SHEETS = {"pale_opaque_fills", "translucent_sheet", "own_paper_shape"}
PAINTING_FAILS = {
    # pays the look: flat fills, one blob, the sheets, whatever threw; neither twin below
    "coarse": FLAT_FILLS | BRUSH_WASHES | THROWS | PALE_AND_SHEETS | {"huge_blob_brush",
              "dark_sheet_wash", "paper_small_painting", "tinted_sheet_wash", "opaque", "pale"},
    # p5.brush's flat fills, one huge wash, pale opaque fills and one translucent sheet at
    # 0.56-0.87 of the weakest; the opaque twin scores higher (-0.079 [-0.160, -0.000])
    "fine_grained": FLAT_FILLS | BRUSH_WASHES | THROWS | PALE_AND_SHEETS | {"opaque"},
    "gated": FLAT_FILLS | BRUSH_WASHES | PALE_AND_SHEETS | {"opaque"},  # pays nothing that threw
    "translucent": FLAT_FILLS | BRUSH_WASHES | THROWS | PALE_AND_SHEETS | {"opaque"},
    # the pale twin paid as its translucent one; the paper painted as a shape at 2.5 of the weakest
    "washes": {"pale", "own_paper_shape"},
    # the judge's win rate against 4 references: one huge wash, p5.brush's flat fills, the paper
    # painted as a shape; no twin
    "pixel_judge": {"huge_wash_brush", "flat_mosaic_brush", "translucent_brush_plain",
                    "own_paper_shape", "opaque", "pale"},
    # every cheat <= 0.37 of the weakest genuine painting; both twins below the translucent one
    # (at this table's 10 pairs: on 39 held-out pairs the opaque twin's is +0.076 [-0.033, +0.184],
    # experiments/2026-12-05_show_through/)
    "show_through": set(),
}  # fmt: skip
# Cheats added for issue 44: a flat opaque whale alone, and under document tricks that draw
# nothing (unused <defs>, hidden or size-0 shapes, another namespace, a colour of alpha 0, a
# group scaled to nothing, shapes off the sheet), opacity a <style> rule overrides, a many-stop
# gradient, three hundred tiny dots. The document terms pay the tricks nothing; under svg_coarse
# (and svg_fine as a weighted sum, before issue 44 made its picture a product) each earns what
# its pixel terms pay the flat whale, plus its length ramp.
DOCUMENT_TRICKS = {"unused_defs", "invisible_shapes", "foreign_shapes", "style_rule_opaque",
                   "gradient_wash", "dot_spray", "unseen_shapes"}  # fmt: skip
SVG_FAILS = {
    # a solid block of the exact hex beats layered glazes, as designed (the opaque twin too)
    "svg_coarse": {"flat_block-0", "flat_block-1", "flat_shapes-0", "flat_shapes-1",
                   "off_colour-0", "off_colour-1", "colour_sheet", "stacked_veils", "opaque",
                   "flat_whale"} | DOCUMENT_TRICKS,
    # none since the picture is a product (issue 44): the prompt's colour x coverage x glazes
    # pays a flat picture or one in another colour nothing; every cheat at most half of the
    # weakest genuine drawing, as asserted (the worst earned 0.29 of it when measured on
    # 2026-12-05, mostly its execution terms; as a weighted sum: 12 cheats, 0.59-0.83)
    "svg_fine": set(),
}  # fmt: skip
# Lines whose verdict is not asserted, being too close to call today: only that their value (a
# cheat's share, a pair kind's lower bound) stays in the range. SwiftShader's fills move a total
# by ~0.01 between runs and machines (shares 0.506 and 0.479 today); the pixel judge's win rate
# moves in steps of 1/8 (its comparisons, each a fine_grained total against a reference's), so
# one close comparison moves a share by ~0.2 (0.516, 0.522 and a lower bound of -0.000 at
# first; 0.768, 0.772 and +0.011 in the run that added issue 42's cheats).
UNSETTLED = {
    "coarse": {"translucent_dots": (0.45, 0.6)},
    "fine_grained": {"brush_ground_wash": (0.45, 0.55)},
    "gated": {"brush_ground_wash": (0.45, 0.55)},
    "translucent": {"huge_blob_brush": (0.45, 0.55)},
    "pixel_judge": {
        "flat_mosaic_brush": (0.3, 0.85),
        "translucent_brush_plain": (0.3, 0.85),
        "pale": (-0.1, 0.1),
    },
}


async def rendered(task_name: str, pairs: int | None = None):
    """The task's table painted once for every offline set of the task: over the second paper
    too when a set reads opacity (show_through), which the other sets' scores ignore."""
    cfg = compose_train([f"task={task_name}"])
    task = build_task(cfg.task)
    table = audit.audit_table(task, pairs)
    config = options.render_config(cfg, workers=2)
    paper = second_paper(reward_sets(offline=True, task=task_name).values())
    episode = task.episode if paper is None else partial(task.episode, second_paper=paper)
    return table, await audit.render_table(table, task, config, progress=False, episode=episode)


def failures(table, canvases, name: str) -> set[str]:
    """The lines of `name`'s audit that fail, but its `UNSETTLED` ones (checked in range)."""
    lines = audit_lines(*audit.score_table(table, canvases, reward_set(name)), Margins())
    lines = lines.set_index("name", drop=False)
    unsettled = UNSETTLED.get(name, {})
    for line, (low, high) in unsettled.items():
        value = lines.loc[line, "share" if lines.loc[line, "kind"] == "cheat" else "low"]
        assert low <= value <= high, (name, line, value)
    failed = lines.loc[lines["passed"].notna() & ~lines["passed"].fillna(True).astype(bool)]
    return set(failed["name"]) - set(unsettled)


@pytest.fixture(scope="module")
async def svg_table():
    return await rendered("svg")


@pytest.fixture(scope="module")
async def painting_table():
    return await rendered("painting")


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_every_offline_set_of_each_task_is_audited_here():
    for task, expected in (("painting", PAINTING_FAILS), ("svg", SVG_FAILS)):
        shipped = set(reward_sets(offline=True, task=task))
        assert shipped == set(expected), (
            f"give each new set of the {task} task the lines its audit fails today "
            f"(python -m watercolor.audit task={task} reward=<set>), and drop the sets that are "
            f"gone: new {sorted(shipped - set(expected))}, gone {sorted(set(expected) - shipped)}"
        )


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(SVG_FAILS))
def test_svg_sets_audit_as_today(svg_table, name):
    table, canvases = svg_table
    assert not [s.name for s in table.sketches if s.kind == "genuine" and not canvases[s.reply].ok]
    assert failures(table, canvases, name) == SVG_FAILS[name] - set(UNSETTLED.get(name, {}))


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(PAINTING_FAILS))
def test_painting_sets_audit_as_today(painting_table, name):
    table, canvases = painting_table
    assert not [s.name for s in table.sketches if s.kind == "genuine" and not canvases[s.reply].ok]
    assert all(canvases[r].ok for p in table.pairs for r in (p.reference, p.twin))
    assert failures(table, canvases, name) == PAINTING_FAILS[name] - set(UNSETTLED.get(name, {}))


@pytest.mark.browser
@pytest.mark.parametrize(
    ("cheat_share", "code"), [("0.2", 1), pytest.param("0.5", 0, marks=pytest.mark.slow)]
)
@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_command_prints_one_json_object_and_exits_with_its_verdict(
    capsys, tmp_path, cheat_share, code
):
    # svg_fine passes every check at the default margin, 0.5, and fails when a cheat may earn
    # only 0.2: its worst cheat lies between (gradient_wash, 0.29 when measured on 2026-12-05).
    csv = tmp_path / "lines.csv"
    argv = ["task=svg", "reward=svg_fine", "--pairs", "2", "--cheat-share", cheat_share]
    assert audit.main([*argv, "--json", "--csv", str(csv)]) == code
    out, err = capsys.readouterr()
    found = json.loads(out)
    assert (found["reward"], found["task"], found["passed"]) == ("svg_fine", "svg", code == 0)
    checked = [line["passed"] for line in found["lines"] if line["passed"] is not None]
    assert found["passed"] == all(checked) and len(checked) == 25
    pairs = [line for line in found["lines"] if line["kind"] == "pair"]
    assert [(p["name"], p["pairs"]) for p in pairs] == [("opaque", 2), ("pale", 2)]
    assert "audit: rendered 36 of 36" in err and csv.read_text().startswith("kind,name,")


def test_a_set_that_reads_a_second_paper_gets_each_reply_painted_over_it():
    task = build_task(compose_train().task)
    assert audit.episode(task, reward_set("washes")) is task.episode
    matted = audit.episode(task, reward_set("washes", ['+reward.second_paper="#1e3a5f"']))
    assert matted.func is task.episode and matted.keywords == {"second_paper": "#1e3a5f"}


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["reward=nope"], "nope"),
        (["task=svg", "reward=coarse"], "coarse"),
        (["~task.audit"], "no audit table"),
        (["--pairs", "-1"], "--pairs"),
        (["nope=1"], "nope"),
    ],
)
def test_bad_input_is_a_usage_error_before_any_render(capsys, argv, named):
    assert audit.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and named in err and "rendered" not in err
