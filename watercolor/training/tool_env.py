"""Revision for models that take images: TRL's `environment_factory` with a `submit` tool.

    >>> episodes = SubmitEpisodes(reward_set, renderer, task.feedback, turns=2, image_px=128)
    >>> GRPOTrainer(model, processing_class=load_processor(path), reward_funcs=[],
    ...             environment_factory=episodes, args=GRPOConfig(max_tool_calling_iterations=2))
    >>> episodes.close()                                  # the renderer's pool, on its own loop

`watercolor.train` takes this route when `task.turns` > 1 and the model group says `takes_images:
true` (the Qwen3.5 recipes); text models revise through `watercolor.training.revision`. Each
rollout gets a `SubmitEnvironment`. The model calls `submit(sketch)`; the environment paints the
sketch with the run's renderer, scores it with the run's reward set and returns the canvas at
`image_px` pixels with the environment's words on it (the task's `feedback(canvas, score)`, the same
text the text route and the env server give). TRL feeds both back to the model (the image through
the processor, so the model sees its painting), the model may revise and submit again, up to `turns`
submissions; a further one is refused in words.
What a rollout is credited with (`get_reward`) and what TRL's route cannot do: the comments at
`SubmitEnvironment.get_reward` and `SubmitEpisodes`.

What this isolates: nothing itself; sketches run in the renderer's sandboxed pages
(`watercolor.render.pool`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import RewardSet, Score
from watercolor.rewards.trl_adapter import Renderer, prompt_text
from watercolor.tracking import canvas_image
from watercolor.training.settings import refuse_group_components

log = logging.getLogger(__name__)

# Appended to the task's request by `reset` (TRL adds a string it returns to the last user turn).
HOW_TO_SUBMIT = (
    "\n\nSubmit the sketch with the submit tool: it paints it and shows you the canvas and what "
    "the environment saw. You may revise and submit again, {turns} submissions in all; the last "
    "one is scored."
)
NO_MORE = (
    "Not painted: you have used all {turns} submissions. The last one is scored; reply without "
    "calling submit."
)


# What TRL's route cannot do, and is not rebuilt here (TRL 1.16, `GRPOTrainer._tool_call_loop`):
# - One rollout's tool calls run at a time, so a batch's renders are serial (the text route paints a
#   batch concurrently on the pool's workers).
# - `get_reward` is called per rollout, so reward sets with group components (the judge's shared
#   references, group diversity) cannot score a group together: they are refused.
# - The environment owns the reward, so TRL logs one column (`rewards/SubmitEnvironment`), not one
#   per component, and no canvases reach MLflow's rollout gallery; the feedback text carries the
#   components to the model.
# Async `submit` runs on TRL's own event loop (`trainer.async_loop`), the one the renderer's render
# pool is then started on (Playwright objects belong to the loop that made them); `close()` closes
# the pool there.
@dataclass
class SubmitEpisodes:
    """TRL's `environment_factory`: a fresh `SubmitEnvironment` per rollout, one shared renderer."""

    reward_set: RewardSet
    renderer: Renderer
    feedback: Callable[[Canvas, Score | None], str]  # the task's words on a canvas
    turns: int = 2
    image_px: int = 128
    seed: int = 0
    loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)  # the renderer's

    def __post_init__(self) -> None:
        if self.turns < 2:
            raise ValueError(f"a revision episode has at least 2 turns, got turns={self.turns}")
        refuse_group_components(self.reward_set.group_components)

    def __call__(self) -> SubmitEnvironment:
        return SubmitEnvironment(self)

    def close(self, timeout: float = 60) -> None:
        """Close the renderer on the loop its renders ran on (nothing to do if none ran)."""
        close = getattr(self.renderer, "close", None)
        if close is not None and self.loop is not None and self.loop.is_running():
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=timeout)


class SubmitEnvironment:
    """One rollout's episode: up to `turns` submissions, scored on the last."""

    def __init__(self, episodes: SubmitEpisodes) -> None:
        self.episodes = episodes
        self.reset()

    def reset(self, prompt=None, **columns) -> str:
        """Start the episode for a dataset row (`prompt`: its conversation); returns the words
        TRL appends to the request."""
        self.request = prompt_text(prompt) if prompt is not None else ""
        self.submissions: list[tuple[Canvas, Score | None]] = []
        return HOW_TO_SUBMIT.format(turns=self.episodes.turns)

    async def submit(self, sketch: str) -> list[dict] | str:
        """Paint the sketch and see the canvas, with what the environment saw and the scores.

        Args:
            sketch: The whole p5.brush sketch: JavaScript with a setup() function.

        Returns:
            The painted canvas as a small image, and the environment's feedback in words.
        """
        episodes = self.episodes
        if len(self.submissions) >= episodes.turns:
            return NO_MORE.format(turns=episodes.turns)
        episodes.loop = asyncio.get_running_loop()
        try:
            canvas = await episodes.renderer(sketch, episodes.seed)
            score = await asyncio.to_thread(episodes.reward_set.score, canvas, prompt=self.request)
        except Exception as error:  # our failure, not the sketch's: no verdict for this rollout
            self.submissions.append((Canvas(Status.INFRA_ERROR, errors=[repr(error)]), None))
            raise  # TRL shows the model the error and counts it in tools/failure_frequency
        self.submissions.append((canvas, score))
        image = small_image(canvas, episodes.image_px)
        return [
            {"type": "image", "image": image},
            {"type": "text", "text": episodes.feedback(canvas, score)},
        ]

    # `get_reward()` is the score of the LAST submission: the trajectory is credited as a whole on
    # its final sketch, never on the change over the draft (the comment above
    # `watercolor.training.revision.RevisionRollout` says why). A rollout that never submitted
    # scores 0 (it painted nothing); an infrastructure failure on the last submission is None (no
    # verdict, left out of the group baseline), never a fake 0. A canvas with no pixels (refused,
    # threw, timed out) is shown as the grey square the galleries use for "painted nothing"; the
    # words say why.
    def get_reward(self) -> float | None:
        """The last submission's total; None when the environment failed it; 0 for none."""
        if not self.submissions:
            log.info("a rollout never called submit: it painted nothing, reward 0")
            return 0.0
        _, score = self.submissions[-1]
        return None if score is None else score.total


def small_image(canvas: Canvas, size: int) -> Image.Image:
    """The canvas as a `size` x `size` RGB image (a grey square when it painted nothing)."""
    return canvas_image(canvas, placeholder=size).resize((size, size), Image.Resampling.LANCZOS)


def load_processor(name_or_path: str | Path):
    """The model's processor (tokenizer + image processor), which TRL needs to show it images."""
    from peft import PeftConfig
    from transformers import AutoProcessor, ProcessorMixin
    from transformers.utils import is_torchvision_available

    from watercolor.policy.loading import is_adapter

    if is_adapter(name_or_path):  # a saved adapter: its base holds the processor
        name_or_path = PeftConfig.from_pretrained(str(name_or_path)).base_model_name_or_path
    no_images = (
        f"model.takes_images is true but {name_or_path} has no image processor "
        "(preprocessor_config.json): the submit tool's canvases could not be shown to it"
    )
    try:
        processor = AutoProcessor.from_pretrained(str(name_or_path))
    except OSError as error:
        raise ValueError(no_images) from error
    except (AttributeError, ImportError, ValueError) as error:
        if is_torchvision_available():
            raise
        raise ImportError(
            f"the processor of {name_or_path} needs torchvision (Qwen3.5's video processor "
            "class does); install the torchvision build of your torch (the gpu extra pins it)"
        ) from error
    if not isinstance(processor, ProcessorMixin) or not hasattr(processor, "image_processor"):
        raise ValueError(no_images)
    return processor
