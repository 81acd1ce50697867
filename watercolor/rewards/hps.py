"""HPSv3, a learned human-preference score, as a reward component: `hpsv3_score(canvas, prompt)`.

    >>> from watercolor.rewards.hps import hpsv3_score, preference
    >>> hpsv3_score(canvas, prompt="draw a peach hibiscus in watercolour", device="cuda:1")
    0.78
    >>> preference(0.0), round(preference(4.0), 3)
    (0.5, 0.731)

The anchor's quality term `W_Q * HPSv3`: HPSv3 (MizzenAI, a 7B Qwen2-VL preference model) gives
each (image, prompt) a preference mean `mu`; the reward is `sigmoid(mu / 4)`, in (0, 1).

It runs as a service (`url=...`, recommended: `services/hpsv3/serve.py` on the GPU machine) or
in process (no `url`); how each is set up, and what is unverified: the comment above
`hpsv3_score`.

None for an infrastructure failure or when the model fails on an image (no verdict, as the
anchor's "scorer down"); 0.0 for a canvas without pixels. A missing extra is a set-up error and
raises, naming the extra.
"""

from __future__ import annotations

import base64
import importlib
import io
import json
import logging
import math
import time
import urllib.error
import urllib.request
from functools import cache

from PIL import Image

from watercolor.canvas import Canvas

log = logging.getLogger(__name__)

EXTRA_HINT = "pip install --no-deps hpsv3==1.0.0"
DEFAULT_PROMPT = "a watercolour painting"  # HPSv3 scores an image *for* a prompt; never empty


def preference(mu: float, scale: float = 4.0) -> float:
    """HPSv3's preference mean mapped to (0, 1): sigmoid(mu / scale), the anchor's mapping."""
    z = mu / scale
    if z >= 0:  # the two branches keep exp() from overflowing for large |mu|
        return 1.0 / (1.0 + math.exp(-z))
    return math.exp(z) / (1.0 + math.exp(z))


def require_hpsv3():
    """The `hpsv3` package, or an ImportError that says how to install it."""
    try:
        return importlib.import_module("hpsv3")
    except ImportError as exc:
        raise ImportError(
            f"HPSv3 scoring needs the hpsv3 package: {EXTRA_HINT} (it pins an older "
            f"transformers, hence --no-deps; a GPU and ~16 GB for its 7B weights), or an "
            f"HPSv3 service: services/hpsv3/serve.py in its own environment, then "
            f"WATERCOLOR_HPS_URL=http://host:port. Importing hpsv3 failed: {exc}"
        ) from exc


@cache
def inferencer(device: str = "cuda", checkpoint: str | None = None):
    """The HPSv3 model on `device` (loaded once per process; downloads weights if not cached)."""
    hpsv3 = require_hpsv3()
    log.info("loading HPSv3 on %s", device)
    return hpsv3.HPSv3RewardInferencer(device=device, checkpoint_path=checkpoint)


def preference_mean(image: Image.Image, prompt: str, device: str, checkpoint: str | None) -> float:
    """HPSv3's `mu` for one image and prompt."""
    import torch  # already loaded with hpsv3; kept out of module import time

    model = inferencer(device, checkpoint)
    with torch.no_grad():
        rewards = model.reward([image], [prompt])  # (N, 2): mu, sigma per image
    return float(rewards[0][0])


def remote_preference_mean(
    png: bytes, prompt: str, url: str, timeout_s: float = 60.0, retries: int = 2
) -> float | None:
    """`mu` from an HPSv3 service (services/hpsv3/serve.py); None when it cannot answer."""
    body = json.dumps({"images": [base64.b64encode(png).decode()], "prompts": [prompt]}).encode()
    request = urllib.request.Request(
        url.rstrip("/") + "/score", data=body, headers={"Content-Type": "application/json"}
    )
    for attempt in range(retries + 1):
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as response:
                return float(json.loads(response.read())["mu"][0])
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode(errors="replace")
            log.error("HPSv3 service %s answered %s: %s", url, exc.code, detail)
            if exc.code < 500:
                return None  # our request is wrong: asking again will not help
        except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
            log.error("HPSv3 service %s failed (attempt %d): %s", url, attempt + 1, exc)
        time.sleep(min(2.0**attempt, 10.0))
    return None


def hpsv3_remote(
    canvas: Canvas,
    prompt: str = "",
    *,
    url: str,
    scale: float = 4.0,
    timeout_s: float = 60.0,
    retries: int = 2,
) -> float | None:
    """(0, 1): sigmoid(mu / scale) from an HPSv3 service at `url`; None if it cannot answer."""
    if canvas.infra_failure:
        return None
    if canvas.png is None:
        return 0.0
    mu = remote_preference_mean(canvas.png, prompt or DEFAULT_PROMPT, url, timeout_s, retries)
    return None if mu is None else preference(mu, scale)


# Two ways to run the model:
# - **a service** (`url=...`, recommended): `services/hpsv3/serve.py` in its own environment on the
#   GPU machine (hpsv3 pins transformers 4.45.2, which conflicts with our pin, so the two cannot
#   share one environment); this component POSTs each canvas to it (`hpsv3_remote`). A service that
#   is down, times out or fails on an image gives None, never 0.
# - **in process** (no `url`): the `hpsv3` package installed by hand into this environment, `pip
#   install --no-deps hpsv3==1.0.0` plus its runtime needs; whether its Qwen2-VL code runs under
#   transformers 5 is unverified. Its weights, about 16 GB, come from the hub on first use and in
#   practice a GPU: the anchor ran it on its own A100 (`device` takes any torch device, e.g.
#   "cuda:1"). The package is imported, and the model loaded, on the first score only, once per
#   process and (device, checkpoint), so reward sets that name this component compose and
#   instantiate without the extra.
def hpsv3_score(
    canvas: Canvas,
    prompt: str = "",
    *,
    url: str | None = None,
    device: str = "cuda",
    checkpoint: str | None = None,
    scale: float = 4.0,
) -> float | None:
    """(0, 1): HPSv3's preference for the painting given the prompt, sigmoid(mu / scale).

    From the service at `url` when given, else from the hpsv3 package in this process."""
    if url:
        return hpsv3_remote(canvas, prompt, url=url, scale=scale)
    if canvas.infra_failure:
        return None
    if canvas.png is None:
        return 0.0
    require_hpsv3()  # a missing extra raises here, not as a silent None below
    with Image.open(io.BytesIO(canvas.png)) as image:
        rgb = image.convert("RGB")
    try:
        mu = preference_mean(rgb, prompt or DEFAULT_PROMPT, device, checkpoint)
    except (
        RuntimeError
    ) as exc:  # CUDA out of memory, device lost: the scorer failed, not the sketch
        log.error("HPSv3 failed on a canvas: %s", exc)
        return None
    return preference(mu, scale)
