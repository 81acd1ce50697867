"""HPSv3 as a service: the HTTP server of services/hpsv3/serve.py and the reward's client.

The server here is the real one (its request parsing, batching lock, errors), started on
loopback, but its model is a stand-in: HPSv3 needs a GPU and 16 GB of hub weights that cannot run
on our machines. The stand-in scores an image by its mean redness, so tests can tell images apart.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from judge_helpers import canvas_of

from watercolor.canvas import Canvas, Status
from watercolor.rewards.hps import hpsv3_remote, hpsv3_score, preference

SERVE = Path(__file__).resolve().parents[2] / "services" / "hpsv3" / "serve.py"
spec = importlib.util.spec_from_file_location("hpsv3_serve", SERVE)
serve = importlib.util.module_from_spec(spec)
spec.loader.exec_module(serve)


def redness(images, prompts):
    """Stand-in for HPSv3: mu = (mean red - mean blue) / 25, sigma 1."""
    scores = []
    for image in images:
        r, _, b = (sum(band.getdata()) / (image.width * image.height) for band in image.split())
        scores.append(((r - b) / 25, 1.0))
    return scores


def failing(images, prompts):
    raise RuntimeError("CUDA out of memory")


@pytest.fixture
def service(request):
    server = serve.make_server("127.0.0.1", 0, getattr(request, "param", redness), "stand-in")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_the_service_scores_each_canvas_through_the_reward(service):
    red, blue = canvas_of((220, 40, 40)), canvas_of((40, 40, 220))
    assert hpsv3_remote(red, "a red square", url=service) == pytest.approx(
        preference((220 - 40) / 25)
    )
    assert hpsv3_score(blue, "a blue square", url=service) == pytest.approx(
        preference((40 - 220) / 25)
    )


def test_no_pixels_and_no_verdict_never_reach_the_service():
    nowhere = "http://127.0.0.1:9"  # nothing listens: a request would fail
    assert hpsv3_remote(Canvas(status=Status.ERROR, errors=["x"]), url=nowhere) == 0.0
    assert hpsv3_remote(Canvas(status=Status.INFRA_ERROR), url=nowhere) is None


def test_a_service_that_is_down_is_no_verdict_not_zero():
    assert hpsv3_remote(canvas_of((220, 40, 40)), url="http://127.0.0.1:9", retries=0) is None


@pytest.mark.parametrize("service", [failing], indirect=True)
def test_a_model_failure_is_no_verdict(service):
    assert hpsv3_remote(canvas_of((220, 40, 40)), url=service, retries=1) is None


def test_bad_requests_are_refused_with_a_reason(service):
    import json
    import urllib.error
    import urllib.request

    for body in (b"not json", json.dumps({"images": ["!!"], "prompts": ["x"]}).encode(),
                 json.dumps({"images": [], "prompts": []}).encode()):  # fmt: skip
        request = urllib.request.Request(service + "/score", data=body)
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=10)
        assert caught.value.code == 400 and "error" in json.loads(caught.value.read())
    with urllib.request.urlopen(service + "/health", timeout=10) as response:
        assert json.loads(response.read()) == {"ok": True, "model": "stand-in"}


@pytest.mark.skipif(importlib.util.find_spec("hpsv3") is not None, reason="hpsv3 is installed")
def test_serving_without_the_package_says_how_to_install_it():
    done = subprocess.run([sys.executable, str(SERVE), "--port", "0"], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode != 0
    assert "pip install -r services/hpsv3/requirements.txt" in done.stderr
