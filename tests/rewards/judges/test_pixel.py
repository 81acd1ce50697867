"""The offline pixel judge orders the tiers of the reference pool and prefers a rendered
watercolour to a flat cheat, whichever side each is shown on."""

import pytest

from watercolor.config import reward_set
from watercolor.rewards.judges import PixelJudge
from watercolor.tasks.painting import sample_sketches

FLAT_CHEAT = """function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  fill("#f2a68a"); circle(0, 0, 300);
  fill("#8ea47f"); rect(-200, 120, 400, 120);
  fill("#a91f3c"); circle(0, 0, 60);
}"""


@pytest.fixture(scope="module")
def judge() -> PixelJudge:
    return PixelJudge(reward_set("fine_grained"), margin=0.02)


def tier_png(references, subject: str, tier: str) -> bytes:
    (ref,) = [r for r in references.references if (r.subject, r.tier) == (subject, tier)]
    return ref.png


def test_love_beats_ok_beats_nope_for_every_subject(judge, references):
    for subject in references.subjects:
        love, ok, nope = (tier_png(references, subject, t) for t in ("love", "ok", "nope"))
        assert (judge.compare(love, nope), judge.compare(nope, love)) == ("A", "B"), subject
        assert (judge.compare(love, ok), judge.compare(ok, love)) == ("A", "B"), subject
        assert judge.compare(ok, nope) in ("A", "tie"), subject


def test_the_same_image_ties_and_scores_are_cached(judge, references):
    png = references.references[0].png
    assert judge.compare(png, png) == "tie"
    assert judge.score(png) == judge.score(bytes(png))  # by content, not by object


def test_a_wide_margin_makes_everything_a_tie(references):
    lenient = PixelJudge(reward_set("fine_grained"), margin=1.0)
    love, nope = (tier_png(references, "poppy", t) for t in ("love", "nope"))
    assert lenient.compare(love, nope) == "tie"


@pytest.mark.browser
async def test_a_sample_watercolour_beats_a_flat_cheat(judge, render_pool):
    sample = await render_pool.render(sample_sketches()["hibiscus"], seed=0)
    cheat = await render_pool.render(FLAT_CHEAT, seed=0)
    assert sample.ok and cheat.ok
    assert judge.compare(sample.png, cheat.png) == "A"
    assert judge.compare(cheat.png, sample.png) == "B"
