"""A task served as an OpenEnv environment (painting by default; `--set task=svg` for SVG).

    python -m watercolor.env.serve                        # server: many sessions, one pool
    from watercolor.env.client import CanvasEnv, paint_remote

models.py (wire types), environment.py (CanvasEnvironment), step_reward.py (default score),
rubric.py (the reward set as an OpenEnv rubric tree), manifest.py (envs/<task>/openenv.yaml),
serve.py (the server), client.py (typed client, remote painting).

`PORT` is the server's default port (`serve --port`) and where `RemoteRenderer` (the render
fleet, `renderer=remote`) looks when given no server: the one place it is set. It is none of the
other services' defaults, so they can share a machine: TRL's vLLM server takes 8000
(conf/sampler/vllm_server.yaml), the VLM judge 8001 (conf/reward/blocks/judge/vlm.yaml), the HPSv3
service 8765 (services/hpsv3/serve.py).
"""

import warnings
from collections.abc import Callable, Mapping

PORT = 8100
# The environment's types were named for painting before it served other tasks, and the render
# fleet's client was a painter before that word meant only the policy; the old names answer, with
# a DeprecationWarning, until the release after 2026-12 (clients import them, configs name them).
RENAMED = {
    "PaintAction": "CanvasAction", "PaintObservation": "CanvasObservation",
    "PaintState": "CanvasState", "PaintEnvironment": "CanvasEnvironment", "PaintEnv": "CanvasEnv",
    "RemotePainter": "RemoteRenderer",
}  # fmt: skip


def renamed_names(namespace: Mapping[str, object], module: str) -> Callable[[str], object]:
    """A module's `__getattr__` that answers each old name (`RENAMED`) defined there with its
    new one's object, warning that the old name goes."""

    def old_name(name: str) -> object:
        new = RENAMED.get(name)
        if new is None or new not in namespace:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} is deprecated: use {new} (same class); the old name goes "
                      "in the next release", DeprecationWarning, stacklevel=2)  # fmt: skip
        return namespace[new]

    return old_name
