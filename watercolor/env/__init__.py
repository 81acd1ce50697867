"""A task served as an OpenEnv environment (painting by default; `--set task=svg` for SVG).

    python -m watercolor.env.serve                        # server: many sessions, one pool
    from watercolor.env.client import CanvasEnv, paint_remote

models.py (wire types), environment.py (CanvasEnvironment), step_reward.py (default score),
rubric.py (the reward set as an OpenEnv rubric tree), manifest.py (envs/<task>/openenv.yaml),
serve.py (the server), client.py (typed client, whole episodes, remote painting). The wire types
and the typed client are defined in `watercolor.render.wire`, and `PORT`, the server's default
port, in `watercolor.render.options`, below this package, because the render fleet
(`watercolor.render.fleet.RemoteRenderer`, `renderer=remote`) paints through them; models.py and
client.py give them to the environment's users.
"""

import warnings
from collections.abc import Callable, Mapping

from watercolor.render.options import PORT

__all__ = ["PORT", "RENAMED", "renamed_names"]
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
