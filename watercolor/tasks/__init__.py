"""Tasks: what the model is asked to do, how its reply is run, and what is said back to it.

    task = build_task(cfg.task)        # conf/task/<name>.yaml makes a `Task`
    task.conversation(task.train_prompts[0])   # the messages the model answers
    pool = RenderPool(render_config, task.harness)   # the task's page in every browser
    canvas = await task.episode(pool, reply, seed=0)   # extract, gate, render, check
    task.feedback(canvas, score)       # what a revising model reads next

A `Task` holds everything task-specific that training, evaluation, the environment server and
the analysis need; they reach a task only through it. A task is a package next to `painting/`
with its own config under `conf/task/`, whose `_target_` is `watercolor.tasks.Task` and whose
fields name the package's functions (conf/task/painting.yaml is the worked example). The
framework's own modules import this module, never a task's package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from watercolor.canvas import Canvas, Status
from watercolor.config import CONF_DIR, compose_train
from watercolor.rewards.reward_set import RewardSet, second_paper
from watercolor.tasks.episode import fenced_blocks

if TYPE_CHECKING:  # the analysis imports tasks without the renderer's Playwright
    from watercolor.render.page_harness import Harness
    from watercolor.tasks.audit_table import AuditTable


@dataclass
class Task:
    """One task, as its config builds it (`conf/task/<name>.yaml`).

    - `name`: the task's name, its config option's (`task=<name>`); each reward set names the
      task it scores with it (`task:` in conf/reward/*.yaml);
    - `train_prompts`, `eval_prompts`: the requests (training, held out), as plain text;
    - `conversation(prompt)`: the messages the model answers (system prompt and request);
    - `episode(pool, reply, *, seed)`: runs one reply in the render pool and returns its
      `Canvas` (the task's extraction, static gate, render and checks: `render.renderers.Episode`);
    - `harness`: the page the render pool holds for the task's code
      (`watercolor.render.page_harness.Harness`: its document and the contract it keeps);
    - `feedback(canvas, score)`: the environment's words on a canvas, for revision episodes;
    - `revision_conversation(conversation, draft, feedback)`: the next turn's messages;
    - `suffix`: the file suffix of a reply's code where it is saved (".js", ".svg");
    - `description`: one line on what the model does, for the environment's metadata;
    - `turns`: replies per episode (1: one reply, scored; 2+: draft, feedback, revisions);
    - `feedback_image_px`: the canvas's size in the feedback that models taking images see;
    - `style(reply)`: the task's code-read `style/<name>` measures of a clean run, columns of
      every evaluation (`watercolor.analysis.behaviour.behaviour_row`); null in the config: none.
    - `audit(pairs=N)`: the table `python -m watercolor.audit` scores a reward set on (genuine
      sketches, cheats, `N` matched pairs a kind: `watercolor.tasks.audit_table.AuditTable`);
      null: the task has none.
    - `audited_reward`: the reward set of the task that passes its audit (`python -m
      watercolor.audit`): every run's yardsticks read the rollouts' score under it beside the
      run's own reward, to show a set being gamed (`watercolor.training.yardsticks`); null: none.
    """

    name: str
    train_prompts: Sequence[str]
    eval_prompts: Sequence[str]
    conversation: Callable[[str], list[dict[str, str]]]
    episode: Callable[..., Any]
    harness: Harness
    feedback: Callable[..., str]
    revision_conversation: Callable[[list[dict], str, str], list[dict]]
    suffix: str
    description: str
    style: Callable[[str], dict[str, float]] | None
    turns: int = 1
    feedback_image_px: int = 128
    audit: Callable[..., AuditTable] | None = None
    audited_reward: str | None = field(kw_only=True)  # each task's config says (null: none)

    def painting_for(self, *reward_sets: RewardSet) -> Task:
        """This task with its episode painting each reply as `reward_sets` read it: again over
        the second paper a set names (`RewardSet.second_paper`), for opacity by matting. The one
        way training, evaluation, the audit, `score`, `render`, the environment server and the
        yardsticks paint for a set (`episode_config` is its config form)."""
        paper = second_paper(reward_sets)
        if paper is None:
            return self
        return dataclasses.replace(self, episode=partial(self.episode, second_paper=paper))

    def prompts(self, split: str) -> Sequence[str]:
        """The `train` or `heldout` prompts."""
        if split not in ("train", "heldout"):
            raise ValueError(f"split is 'train' or 'heldout', not {split!r}")
        return self.train_prompts if split == "train" else self.eval_prompts


def build_task(config: DictConfig) -> Task:
    """The `Task` a task config describes (`instantiate` with its fields built)."""
    task = instantiate(config)
    if not isinstance(task, Task):
        raise TypeError(
            f"a task config makes a watercolor.tasks.Task, this one a {type(task).__name__}: "
            "give it `_target_: watercolor.tasks.Task` (conf/task/painting.yaml)"
        )
    return task


def episode_config(task: DictConfig, reward_sets: Iterable[RewardSet]) -> dict:
    """A task config's `episode` (plain values) as `Task.painting_for` runs it for `reward_sets`:
    what a remote renderer and the environment server compare (`GET /task/episode`)."""
    episode = OmegaConf.to_container(task.episode, resolve=True)
    paper = second_paper(reward_sets)
    return episode if paper is None else {**episode, "second_paper": paper}


def other_task(path: str | Path, reply: str, canvas: Canvas, task: str) -> str | None:
    """What a command says when `reply` (read from `path`; "-": stdin) is clearly another task's
    than `task`'s (the composed one's name): that task found no code in it (its gate refused it,
    with none), and its file has another task's suffix (`suffix` in conf/task/*.yaml: `.svg`) or
    its code blocks that suffix's name as their language (```svg). None when it is not that
    clear."""
    if canvas.status != Status.VIOLATION or canvas.sketch:
        return None
    name = "stdin" if str(path) == "-" else Path(path).name
    for option in sorted(p.stem for p in (CONF_DIR / "task").glob("*.yaml")):
        if option == task:  # a task's option is its name (`watercolor.tasks.Task`)
            continue
        if clue := _clue(Path(path), reply, compose_train([f"task={option}"]).task.suffix):
            return (
                f"{name} looks like a reply to the {option} task ({clue}), and the "
                f"{task} task finds no code in it: add --set task={option}"
            )
    return None


def _clue(path: Path, reply: str, suffix: str) -> str | None:
    """How `reply`, read from `path`, shows it is code of the task whose files end in `suffix`."""
    if path.suffix == suffix:
        return f"a {suffix} file"
    if suffix[1:] in {language for language, _, _ in fenced_blocks(reply)}:
        return f"a ```{suffix[1:]} block"
    return None
