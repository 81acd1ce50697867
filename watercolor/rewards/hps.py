"""HPSv3, a learned human-preference score, as a reward component: `hpsv3_score(canvas, prompt)`.

    >>> from watercolor.rewards.hps import hpsv3_score, preference
    >>> hpsv3_score(canvas, prompt="draw a peach hibiscus in watercolour", device="cuda:1")
    0.78
    >>> preference(0.0), round(preference(4.0), 3)
    (0.5, 0.731)

The anchor's quality term `W_Q * HPSv3`: HPSv3 (MizzenAI, a 7B Qwen2-VL preference model) gives
each (image, prompt) a preference mean `mu`; the reward is `sigmoid(mu / 4)`, in (0, 1).
It needs the `hpsv3` package, installed by hand: `pip install --no-deps hpsv3==1.0.0` plus its
runtime needs (hpsv3 pins transformers 4.45.2, which conflicts with our pin, so it is not a
project extra; whether its Qwen2-VL code runs under transformers 5 is unverified). Its weights,
about 16 GB, come from the hub on first use and in practice a GPU: the anchor ran it on its own
A100 (`device` takes any torch device, e.g. "cuda:1"). The package is imported, and the model
loaded, on the first score only, once per process and (device, checkpoint), so reward sets that
name this component compose and instantiate without the extra.

None for an infrastructure failure or when the model fails on an image (no verdict, as the
anchor's "scorer down"); 0.0 for a canvas without pixels. A missing extra is a set-up error and
raises, naming the extra.
"""

from __future__ import annotations

import importlib
import io
import logging
import math
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
            f"transformers, hence --no-deps; a GPU and ~16 GB for its 7B weights). "
            f"Importing hpsv3 failed: {exc}"
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


def hpsv3_score(
    canvas: Canvas,
    prompt: str = "",
    *,
    device: str = "cuda",
    checkpoint: str | None = None,
    scale: float = 4.0,
) -> float | None:
    """(0, 1): HPSv3's preference for the painting given the prompt, sigmoid(mu / scale)."""
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
