"""The sample watercolours: gate-clean, on the prompt's skeleton, layered (that they paint:
tests/rewards/test_reward_sketches.py, which renders them)."""

import re

import pytest

from watercolor.tasks.painting import SAMPLES_DIR, sample_sketches
from watercolor.tasks.painting.gate import ANCHOR_BRUSH_METHODS, check_reply

SAMPLES = sample_sketches()


def test_there_are_six_to_eight_samples_each_in_the_readme():
    assert 6 <= len(SAMPLES) <= 8
    readme = (SAMPLES_DIR / "README.md").read_text()
    assert all(f"`{name}.js`" in readme for name in SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_passes_the_gate_fenced_and_bare(name):
    for text in (f"```js\n{SAMPLES[name]}```", SAMPLES[name]):
        sketch, violations = check_reply(text)
        assert violations == [], violations
        assert sketch.strip() == SAMPLES[name].strip()


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_follows_the_skeleton_with_layered_washes(name):
    code = SAMPLES[name]
    for piece in ("createCanvas(600, 600, WEBGL)", "brush.scaleBrushes(3)", "background("):
        assert piece in code
    assert set(re.findall(r"brush\.(\w+)", code)) <= ANCHOR_BRUSH_METHODS
    assert "brush.fillBleed(" in code and "brush.fillTexture(" in code
    assert code.count("brush.fill(") >= 4  # several washes (some inside helper functions)
    opacities = [int(o) for o in re.findall(r"brush\.fill\([^,()]+,\s*(\d+)\)", code)]
    assert opacities and max(opacities) < 255  # every wash translucent


# That each sample paints a non-blank, many-coloured canvas is checked where they are rendered
# anyway: tests/rewards/test_reward_sketches.py::test_every_sketch_renders_as_intended.
