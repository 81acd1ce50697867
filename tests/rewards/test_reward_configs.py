"""conf/reward/*.yaml compose with Hydra, instantiate into RewardSets, reweight from the CLI,
and order genuine watercolours above the cheats the way the design says they should."""

from dataclasses import replace
from pathlib import Path

import pytest
import synthetic_canvases as paint
from hydra import compose, initialize_config_dir
from hydra.utils import instantiate
from omegaconf import OmegaConf

from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train, reward_set_names
from watercolor.rewards.reward_set import RewardSet

CONF = Path(__file__).resolve().parents[2] / "conf"
# The seed's three sets as they compose today: a new reward is a new set (issue 34), never an edit
# to these. After a deliberate change, rewrite the snapshot: OmegaConf.to_yaml(cfg.reward).
SEED_SETS = ("coarse", "fine_grained", "gated")
COMPOSED = Path(__file__).parent / "composed"
REWARDS = reward_set_names(offline=True)  # the others need HPSv3 or a judge server
PROMPT = "draw a coral hibiscus with green leaves in watercolour"


def composed(name: str, *overrides: str):
    """The `reward` node of `+reward=<name>` with overrides, as an entry point composes it."""
    with initialize_config_dir(config_dir=str(CONF), version_base="1.3"):
        return compose(overrides=[f"+reward={name}", *overrides]).reward


def reward_set(name: str, *overrides: str) -> RewardSet:
    """What an entry point does: compose the `reward` group with overrides, instantiate it."""
    return instantiate(composed(name, *overrides))


@pytest.fixture(scope="module")
def sets() -> dict[str, RewardSet]:
    return {name: reward_set(name) for name in (*SEED_SETS, "translucent", "washes")}


@pytest.mark.parametrize("name", SEED_SETS)
def test_the_seed_sets_compose_as_they_did(name):
    assert OmegaConf.to_yaml(composed(name)) == (COMPOSED / f"{name}.yaml").read_text()


def test_translucent_is_fine_grained_with_half_of_layering_paid_for_translucency(sets):
    fine, translucent = sets["fine_grained"].weights, sets["translucent"].weights
    moved = {"translucent_layering": -0.10, "translucent_washes": 0.10}
    assert set(translucent) == set(fine) | {"translucent_washes"}
    for name, weight in translucent.items():
        assert weight == pytest.approx(fine.get(name, 0.0) + moved.get(name, 0.0)), name


def test_the_three_seed_rewards_exist():
    assert {"coarse", "fine_grained", "gated"} <= set(REWARDS)


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_every_reward_set_names_a_task_it_scores():
    # `task:` in each YAML (or the set it extends) is a `name` of conf/task/, which is the option's
    # own name, so `task=svg` and `task: svg` say the same thing.
    tasks = {path.stem: compose_train([f"task={path.stem}"]).task.name
             for path in sorted((CONF / "task").glob("*.yaml"))}  # fmt: skip
    assert all(name == option for option, name in tasks.items()), tasks
    made_for = {name: composed(name).get("task") for name in reward_set_names()}
    assert set(made_for.values()) <= set(tasks), made_for
    for task in tasks:  # each task's sets are exactly those that say so, offline or not
        assert reward_set_names(task=task) == [n for n, t in made_for.items() if t == task]
    assert {made_for[n] for n in ("coarse", "gated", "hps_led", "judge_led", "pixel_judge")} == {
        "painting"
    }  # extended sets and sets that need a server are painting's too
    assert reward_set_names(task="svg") == ["svg_coarse", "svg_fine"]


@pytest.mark.parametrize("name", REWARDS)
def test_every_reward_config_instantiates_and_scores(name):
    rewards = reward_set(name)
    assert isinstance(rewards, RewardSet)
    assert sum(rewards.weights.values()) == pytest.approx(1.0)  # documented: totals in [0, 1]
    canvas = paint.layered_watercolour()
    lowest = 0.0
    if rewards.second_paper:  # painted over one paper only: no verdict, never "opaque"
        assert rewards.score(canvas, prompt=PROMPT).total is None
        # a twin that is no matte (no paper of its own to read): a verdict, the matte's 0
        canvas, lowest = replace(canvas, twin=canvas, twin_paper=rewards.second_paper), -1e-9
    score = rewards.score(canvas, prompt=PROMPT)
    assert lowest < score.total <= 1.0
    assert set(score.components) == set(rewards.components)
    assert rewards.score(Canvas(status=Status.INFRA_ERROR)).total is None


def test_gated_is_fine_grained_behind_a_hard_gate(sets):
    fine, gated = sets["fine_grained"], sets["gated"]
    assert set(fine.components) < set(gated.components) and set(gated.gate) >= {"clean_run"}
    genuine = paint.layered_watercolour()
    assert gated.score(genuine).total == pytest.approx(fine.score(genuine).total)
    threw = Canvas(status=Status.ERROR, png=genuine.png, errors=["TypeError: x is undefined"])
    refused = Canvas(status=Status.VIOLATION, violations=["bare_primitive"], png=genuine.png)
    for canvas in (threw, refused, paint.blank()):
        assert gated.score(canvas).total == 0.0 and fine.score(canvas).total > 0.0


def test_command_line_reweighting_changes_the_total():
    canvas = paint.layered_watercolour()
    rewards = reward_set("fine_grained")
    default, weight = rewards.score(canvas), rewards.weights["coverage"]
    reweighted = reward_set("fine_grained", "reward.components.coverage.weight=0").score(canvas)
    assert weight > 0
    assert reweighted.total == pytest.approx(
        default.total - weight * default.components["coverage"]
    )
    dropped = reward_set("fine_grained", "~reward.components.palette_match")
    assert "palette_match" not in dropped.components
    gate_off = reward_set("gated", "reward.gate=[]")
    assert gate_off.score(paint.blank()).total > 0.0


def test_dropping_a_gate_component_is_refused_loudly():
    with pytest.raises(Exception, match="clean_run"):
        reward_set("gated", "~reward.components.clean_run")


CHEATS = {
    "flat_blocks": paint.flat_blocks,
    "flat_mosaic": paint.flat_mosaic,
    "speckle": paint.speckle,
    "huge_blob": paint.huge_blob,
    "blank": paint.blank,
}


@pytest.mark.parametrize("name", ["fine_grained", "gated", "translucent", "washes"])
@pytest.mark.parametrize("cheat", CHEATS)
def test_layered_watercolours_outscore_the_cheats(sets, name, cheat):
    rewards = sets[name]
    genuine = [paint.layered_watercolour(layers) for layers in (3, 6, 12)]
    worst_genuine = min(rewards.score(c, prompt=PROMPT).total for c in genuine)
    assert worst_genuine > rewards.score(CHEATS[cheat](), prompt=PROMPT).total + 0.15


@pytest.mark.parametrize("flat", [paint.flat_blocks, paint.flat_mosaic])
def test_coarse_is_fooled_by_flat_blocks_more_than_fine_grained(sets, flat):
    flat, genuine = flat(), paint.layered_watercolour()

    def margin(name: str) -> float:  # how far the flat blocks beat (or trail) the watercolour
        return sets[name].score(flat).total - sets[name].score(genuine).total

    assert margin("coarse") > 0.0  # flat blocks in the right colours win the coarse reward
    assert margin("fine_grained") < -0.3 and margin("coarse") > margin("fine_grained") + 0.3
