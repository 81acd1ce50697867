"""Rendering sketches in sandboxed headless Chromium: `RenderPool` turns JS into a `Canvas`.

>>> from watercolor.render import RenderConfig, RenderPool
>>> RenderConfig(size=256).workers
2
"""

from watercolor.render.pool import RenderConfig, RenderPool

__all__ = ["RenderConfig", "RenderPool"]
