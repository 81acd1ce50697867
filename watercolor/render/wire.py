"""The wire between an environment server (`watercolor.env.serve`) and its clients, any task's:
the types a client sends, sees and can inspect, and the typed client.

    >>> from watercolor.canvas import Canvas, Status
    >>> from watercolor.render.wire import CanvasObservation
    >>> canvas = Canvas(status=Status.VIOLATION, violations=["no_sketch"])
    >>> obs = CanvasObservation.from_canvas(canvas, 0.0)
    >>> obs.status, obs.reward, obs.done, obs.to_canvas().violations
    ('violation', 0.0, True, ['no_sketch'])

OpenEnv moves pydantic models as JSON: `CanvasAction` is the model's reply text,
`CanvasObservation` is the prompt (after reset) or a scored render (after each step, with the
environment's `feedback` on it; `done` on the episode's last step), `CanvasState` is the
episode's bookkeeping. The canvas travels as base64 PNG, so a client can rebuild the `Canvas`
(`to_canvas()`) and score it with any reward set locally. `CanvasEnv` is OpenEnv's `EnvClient`
(one WebSocket, one server-side session) with these types. They sit in render/, below the
environment, because `RemoteRenderer` (`watercolor.render.fleet`) paints through them; the
environment's users import them from `watercolor.env.models` and `watercolor.env.client`, where
the old names (`PaintAction`, ...) still answer, deprecated (`watercolor.env.RENAMED`).
"""

from __future__ import annotations

import base64
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field

from watercolor.canvas import Canvas, Status


class CanvasAction(Action):
    """The policy's whole reply; the task's code is extracted from it (painting: a fenced
    JavaScript block; SVG: the document)."""

    reply: str = Field(..., description="Model reply holding the task's code (painting: one "
                       "fenced JavaScript block; svg: one SVG document)")  # fmt: skip


class CanvasObservation(Observation):
    """After reset: the prompt to paint. After the step: how the render went and its score."""

    prompt: str = Field(default="", description="What to paint")
    system_prompt: str = Field(default="", description="The task's system prompt")
    status: str | None = Field(default=None, description="Render status (watercolor Status)")
    errors: list[str] = Field(default_factory=list, description="Human-readable errors")
    violations: list[str] = Field(default_factory=list, description="Gate violation codes")
    score: float | None = Field(default=None, description="Score; None = infrastructure failure")
    png_base64: str | None = Field(default=None, description="The canvas as base64 PNG")
    timings: dict[str, float] = Field(default_factory=dict, description="Milliseconds per phase")
    sketch: str = Field(default="", description="The extracted code that was run (the task's)")
    seed: int | None = Field(default=None, description="Seed of Math.random in the page")
    feedback: str = Field(
        default="", description="What the environment saw, in words (the task's feedback)"
    )

    @classmethod
    def from_canvas(
        cls, canvas: Canvas, score: float | None, *, done: bool = True, **fields
    ) -> CanvasObservation:
        """A step's observation: the canvas, its score as the reward; the last step is done."""
        png = base64.b64encode(canvas.png).decode("ascii") if canvas.png is not None else None
        return cls(
            status=str(canvas.status),
            errors=list(canvas.errors),
            violations=list(canvas.violations),
            score=score,
            reward=score,
            done=done,
            png_base64=png,
            timings=dict(canvas.timings),
            sketch=canvas.sketch,
            seed=canvas.seed,
            **fields,
        )

    def to_canvas(self, reply: str = "") -> Canvas:
        """The `Canvas` this observation carries (for local reward sets); needs a step result."""
        if self.status is None:
            raise ValueError("a reset observation carries no canvas")
        png = base64.b64decode(self.png_base64) if self.png_base64 is not None else None
        return Canvas(
            status=Status(self.status),
            png=png,
            errors=list(self.errors),
            violations=list(self.violations),
            timings=dict(self.timings),
            sketch=self.sketch,
            reply=reply,
            seed=self.seed or 0,
        )


class CanvasState(State):
    """One episode: which prompt, which seed, how many steps, and how the last step ended."""

    prompt: str = Field(default="", description="What to paint")
    turns: int = Field(default=1, description="Steps in the episode (1: one reply, 2: + revision)")
    seed: int | None = Field(default=None, description="Seed of the prompt draw and the render")
    status: str | None = Field(default=None, description="Render status after the last step")
    score: float | None = Field(default=None, description="Score after the last step")


class CanvasEnv(EnvClient[CanvasAction, CanvasObservation, CanvasState]):
    """Typed client of `python -m watercolor.env.serve`."""

    def _step_payload(self, action: CanvasAction) -> dict[str, Any]:
        return action.model_dump()

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[CanvasObservation]:
        reward, done = payload.get("reward"), payload.get("done", False)
        fields = {**payload.get("observation", {}), "reward": reward, "done": done}
        observation = CanvasObservation.model_validate(fields)
        metadata = payload.get("metadata")
        return StepResult(observation=observation, reward=reward, done=done, metadata=metadata)

    def _parse_state(self, payload: dict[str, Any]) -> CanvasState:
        return CanvasState.model_validate(payload)
