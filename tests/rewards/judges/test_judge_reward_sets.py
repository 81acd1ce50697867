"""The anchor's three reward sets and the offline pixel_judge set compose, carry the documented
formulas, build without importing hpsv3, and pixel_judge scores a rendered group end to end."""

import importlib.util
import inspect
import sys
from pathlib import Path

import pytest
from hydra.utils import get_object
from omegaconf import OmegaConf

from watercolor.canvas import Canvas, Status
from watercolor.config import CONF_DIR, compose_train, reward_set
from watercolor.rewards.judges import PixelJudge, VLMJudge
from watercolor.rewards.reference_pool import ReferencePool
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks.painting import sample_sketches
from watercolor.tasks.painting.episode import paint

# name -> (W_Q, W_J) of total = 0.05*gate_pass + 0.05*length_ramp + W_Q*hpsv3 + W_J*judge_winrate
ANCHOR_SETS = {"hps_only": (0.90, 0.0), "hps_led": (0.60, 0.30), "judge_led": (0.30, 0.60)}


# The judges (conf/reward/blocks/judge/) list a setting only where conf is its one source (the
# VLM judge's endpoint and model: VLMJudge has no default for them) or where it deliberately
# differs from the judge's own default; the win rate's block (blocks/judge_winrate.yaml) lists
# judge_winrate's and load_pool's defaults for the command line, each equal to its default.
JUDGES = ("watercolor.rewards.judges.vlm.VLMJudge", "watercolor.rewards.judges.pixel.PixelJudge")
WINRATE = ("watercolor.rewards.judges.winrate.judge_winrate",
           "watercolor.rewards.reference_pool.load_pool")  # fmt: skip
DELIBERATE = {("watercolor.rewards.judges.vlm.VLMJudge", "image_size"),
              ("watercolor.rewards.judges.vlm.VLMJudge", "concurrency")}  # fmt: skip
WINRATE_SETTINGS = {"n_references", "love_share", "seed", "source"}  # with its reference pool
VLM_SETTINGS = {"base_url", "model", "image_size", "concurrency"}
JUDGE_SETS = {  # what each judge set lists, so checks them
    "hps_led": WINRATE_SETTINGS | VLM_SETTINGS,
    "judge_led": WINRATE_SETTINGS | VLM_SETTINGS,
    "pixel_judge": WINRATE_SETTINGS,
}


def target_nodes(node):
    """(target, node) of every `_target_` node in a resolved config."""
    if isinstance(node, dict):
        if "_target_" in node:
            yield node["_target_"], node
        for value in node.values():
            yield from target_nodes(value)


@pytest.mark.parametrize("name", JUDGE_SETS)
def test_judge_settings_in_conf_are_not_copies_of_the_judges_defaults(name, monkeypatch):
    # A judge setting listed in conf at its own default is a second source that can part from
    # the first; the win rate's listed defaults must still equal them (set from the command line).
    for variable in ("WATERCOLOR_JUDGE_URL", "WATERCOLOR_JUDGE_MODEL", "WATERCOLOR_REFERENCE_POOL"):
        monkeypatch.delenv(variable, raising=False)
    cfg = OmegaConf.to_container(compose_train([f"reward={name}"]).reward, resolve=True)
    checked = []
    for target, node in target_nodes(cfg):
        if target not in JUDGES + WINRATE:
            continue
        parameters = inspect.signature(get_object(target)).parameters
        for key, value in node.items():
            if key.startswith("_") or isinstance(value, dict):
                continue  # a nested node is a built object (the judge, the pool), not a setting
            default = parameters[key].default
            if target in WINRATE:
                assert value == default, f"{name}: {target} {key}: {value!r}, default {default!r}"
            elif default is not inspect.Parameter.empty:  # else conf is its only source
                assert (target, key) in DELIBERATE and value != default, (
                    f"{name}: {target} {key}: conf copies the default {default!r}"
                )
            checked.append(key)
    assert sorted(checked) == sorted(JUDGE_SETS[name])


@pytest.mark.parametrize("judge", ["VLMJudge", "PixelJudge"])
def test_each_judge_is_configured_in_one_block_that_the_sets_compose(judge):
    # hps_led and judge_led (through hps_led) compose blocks/judge/vlm.yaml; pixel_judge pixel.yaml
    module, conf = judge.removesuffix("Judge").lower(), Path(CONF_DIR, "reward")
    target = f"watercolor.rewards.judges.{module}.{judge}"
    naming = [str(p.relative_to(conf)) for p in conf.rglob("*.yaml") if target in p.read_text()]
    assert naming == [f"blocks/judge/{module}.yaml"]


@pytest.mark.parametrize("name", ANCHOR_SETS)
def test_anchor_sets_compose_with_the_anchor_formula(name):
    rewards = reward_set(name)
    assert isinstance(rewards, RewardSet) and rewards.gate == ("gate_pass",)
    w_q, w_j = ANCHOR_SETS[name]
    expected = {"gate_pass": 0.05, "length_ramp": 0.05, "hpsv3": w_q}
    if w_j:
        expected["judge_winrate"] = w_j
    assert rewards.weights == pytest.approx(expected)
    assert not rewards.normalise and sum(rewards.weights.values()) == pytest.approx(1.0)
    assert "hpsv3" not in sys.modules  # the model's package loads at the first score only


@pytest.mark.parametrize("name", ["hps_led", "judge_led"])
def test_judge_sets_use_the_vlm_judge_at_the_configured_endpoint(name, monkeypatch):
    monkeypatch.setenv("WATERCOLOR_JUDGE_URL", "http://judge.example:9000/v1")
    fn = reward_set(name).group_components["judge_winrate"].fn
    judge, pool = fn.keywords["judge"], fn.keywords["pool"]
    assert isinstance(judge, VLMJudge) and judge.base_url == "http://judge.example:9000/v1"
    assert judge.model == "Qwen/Qwen3-VL-30B-A3B-Instruct"
    assert isinstance(pool, ReferencePool) and len(pool) == 24
    assert (fn.keywords["n_references"], fn.keywords["love_share"]) == (4, 0.5)


def test_weights_and_the_judge_change_from_the_command_line():
    judge = "reward.group_components.judge_winrate"
    rewards = reward_set("judge_led", [f"{judge}.weight=0.5", f"{judge}.fn.n_references=2"])
    assert rewards.weights["judge_winrate"] == 0.5
    assert rewards.group_components["judge_winrate"].fn.keywords["n_references"] == 2


@pytest.mark.skipif(importlib.util.find_spec("hpsv3") is not None, reason="hpsv3 installed")
def test_scoring_with_hps_sets_names_the_missing_extra(references):
    canvas = Canvas(status=Status.OK, png=references.references[0].png, sketch="x" * 900)
    with pytest.raises(ImportError, match="pip install --no-deps hpsv3"):
        reward_set("hps_only").score(canvas, prompt="paint a poppy")


def test_pixel_judge_set_composes_offline():
    rewards = reward_set("pixel_judge")
    assert rewards.weights == pytest.approx({"gate_pass": 0.05, "length_ramp": 0.05,
                                             "judge_winrate": 0.90})  # fmt: skip
    judge = rewards.group_components["judge_winrate"].fn.keywords["judge"]
    assert isinstance(judge, PixelJudge) and isinstance(judge.features, RewardSet)
    assert "granulation" in judge.features.components  # the fine_grained set, composed in


@pytest.mark.browser
async def test_pixel_judge_scores_a_rendered_group_end_to_end(render_pool):
    sketches = sample_sketches()
    replies = [f"```js\n{sketches['hibiscus']}\n```", f"```js\n{sketches['koi']}\n```",
               "I would rather not paint today."]  # fmt: skip
    group = [await paint(render_pool, reply, seed=0) for reply in replies]
    assert [c.status for c in group] == [Status.OK, Status.OK, Status.VIOLATION]
    rewards = reward_set("pixel_judge")
    scores = rewards.score_batch(group, prompt=["paint a peach hibiscus"] * 3)
    for score in scores[:2]:
        winrate = score.components["judge_winrate"]
        assert score.gate_passed and 0.5 <= winrate <= 1.0  # beats at least the `ok` ones
        expected = 0.05 + 0.05 * score.components["length_ramp"] + 0.90 * winrate
        assert score.total == pytest.approx(expected)
    refused = scores[2]
    assert refused.total == 0.0 and refused.components["judge_winrate"] == 0.0
