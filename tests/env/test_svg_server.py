"""The env server serves the SVG task unchanged (issue 33): `--set task=svg` and the server asks
SVG prompts, draws the document in its own harness, scores it with the task's reward set and
answers with the task's feedback. The real server as a subprocess, as test_serve.py runs it."""

import pytest
from env_servers import running_server

from watercolor.env.client import CanvasEnv
from watercolor.env.models import CanvasAction
from watercolor.tasks.svg.prompts import prompts

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAYERED = """```svg
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600">
  <rect width="600" height="600" fill="#fbf8f1"/>
  <circle cx="300" cy="300" r="200" fill="#2a8a8a" fill-opacity="0.5"/>
  <circle cx="260" cy="280" r="120" fill="#1d6f72" fill-opacity="0.6"/>
</svg>
```"""
SCRIPTED = LAYERED.replace("</svg>", "<script>alert(1)</script></svg>")


@pytest.fixture(scope="module")
def server():
    with running_server("--workers", "1", "--time-limit", "60", "--set", "task=svg") as url:
        yield url


async def test_an_svg_session_asks_draws_scores_and_answers(server):
    async with CanvasEnv(base_url=server, message_timeout_s=300) as env:
        first = await env.reset(seed=3)
        assert first.observation.prompt in prompts("train")  # the task's own prompts
        drawn = await env.step(CanvasAction(reply=LAYERED))
        await env.reset(seed=4)
        refused = await env.step(CanvasAction(reply=SCRIPTED))
    # svg_fine pays its picture only in the prompt's colours, which this fixed reply need not
    # use (the prompt is drawn at random): its execution terms it earns whatever the prompt
    assert drawn.observation.status == "ok" and drawn.reward >= 0.05
    assert "translucent_shapes 0.67" in drawn.observation.feedback  # svg_fine, the task's set
    assert drawn.observation.feedback.startswith("The document was drawn.")  # SVG's feedback
    assert refused.observation.status == "violation" and refused.reward < drawn.reward
    assert refused.observation.violations == ["script"]
