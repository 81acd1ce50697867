"""The server's composed config reaches its environments: renderer, gate rules, prompts.

In process: `make_app` is what `python -m watercolor.env.serve` builds for its arguments, and
Starlette's TestClient runs its startup (the pool) and shutdown hooks.
"""

import base64
import io
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from watercolor.config import compose_train
from watercolor.env import manifest
from watercolor.env.serve import make_app
from watercolor.tasks.painting.prompts import SYSTEM_PROMPT, prompts

FLAGS = ["--workers", "1", "--time-limit", "60"]  # generous: shared, slow machines
# A sketch of 111 characters that passes the anchor's gate: one blue wash.
SHORT_REPLY = """```js
function setup() {
  createCanvas(600, 600, WEBGL);
  brush.fill("#3a6ea5", 150);
  brush.circle(0, 0, 200);
}
```"""


def step(client: TestClient, reply: str) -> dict:
    """One stateless HTTP episode (a fresh environment, reset then step): the observation."""
    answer = client.post("/step", json={"action": {"reply": reply}})
    assert answer.status_code == 200, answer.text
    return answer.json()["observation"]


def png_width(observation: dict) -> int:
    return Image.open(io.BytesIO(base64.b64decode(observation["png_base64"]))).size[0]


def test_a_non_local_renderer_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        make_app(["--set", "renderer=remote"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "error: " in error and "RenderConfig" in error and "RemoteRenderer" in error


def test_turns_below_one_are_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        make_app([*FLAGS, "--set", "task.turns=0"])
    assert exit_.value.code == 2
    assert "task.turns must be a whole number of steps" in capsys.readouterr().err


def test_the_task_comes_from_the_composed_config():
    """Prompts and conversation are conf/task's (no render: the pool is never started)."""
    app, _ = make_app([*FLAGS, "--set", "task.train_prompts.split=heldout"])
    client = TestClient(app)  # outside `with`: no startup, no browser
    drawn = [client.post("/reset", json={"seed": s}).json()["observation"] for s in range(8)]
    assert {o["prompt"] for o in drawn} <= set(prompts("heldout"))
    assert all(o["system_prompt"] == SYSTEM_PROMPT for o in drawn)


@pytest.mark.browser
def test_no_flags_render_as_training_does(watercolour_reply):
    renderer = compose_train().renderer  # conf/renderer/local.yaml
    app, _ = make_app(FLAGS)
    with TestClient(app) as client:
        painted = step(client, watercolour_reply)
    assert painted["status"] == "ok", painted["errors"]
    assert png_width(painted) == round(renderer.size * renderer.pixel_density)


@pytest.mark.browser
def test_flags_and_overrides_reach_the_renderer_and_the_gate(watercolour_reply):
    flags = [*FLAGS, "--pixel-density", "0.25", "--set", "task.episode.rules.max_chars=200"]
    app, _ = make_app(flags)
    with TestClient(app) as client:
        refused, painted = step(client, watercolour_reply), step(client, SHORT_REPLY)
    assert refused["status"] == "violation" and refused["violations"] == ["too_long"]
    assert painted["status"] == "ok", painted["errors"]
    assert png_width(painted) == round(compose_train().renderer.size * 0.25)


@pytest.mark.browser
def test_a_set_reading_a_second_paper_is_served_painting_it_as_the_manifest_declares(
    watercolour_reply,
):
    """`--reward show_through` paints each passing reply over the set's second paper too, says
    so at GET /task/episode, and the manifest's episode budget counts both renders (issue 52)."""
    app, _ = make_app([*FLAGS, "--reward", "show_through"])
    with TestClient(app) as client:
        episode = client.get("/task/episode").json()
        painted = step(client, watercolour_reply)
    cfg = compose_train(["reward=show_through"])
    rewards = manifest.instantiate(cfg.reward)
    assert episode["second_paper"] == rewards.second_paper
    assert painted["status"] == "ok" and painted["score"] is not None and painted["score"] > 0
    declared = manifest.resources(cfg, rewards, turns=1)["episode_timeout_s"]
    one = manifest.resources(compose_train(), manifest.instantiate(compose_train().reward), 1)
    assert declared == 2 * one["episode_timeout_s"]  # two renders a step, as served


HEAVY = ("openenv.core.env_server", "uvicorn", "fastapi", "gradio")


@pytest.mark.parametrize("argv", [["--reward", "nope"], ["--set", "nope=1"]])
def test_a_usage_error_is_answered_before_the_server_stack_loads(argv):
    # Issue 46: OpenEnv's server stack (fastapi, gradio) took 5-11 s to import on a busy machine
    # before argparse read --reward.
    probe = (
        "import sys\nfrom watercolor.env import serve\ntry:\n    serve.main(sys.argv[1:])\n"
        "except SystemExit as done:\n"
        f"    print(done.code, [m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.stdout.split(maxsplit=1) == ["2", "[]\n"], done.stdout + done.stderr[-2000:]
