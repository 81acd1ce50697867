"""Episodes of draft, feedback and revision for GRPO (`task.turns` > 1; 1 is single-turn).

    >>> rollout = RevisionRollout(scorer, task)  # a watercolor.tasks.Task with turns >= 2
    >>> GRPOTrainer(..., rollout_func=rollout)

Each of a group's G completions is one whole trajectory: the model's draft, the environment's
feedback on it (the task's `feedback`; painting's says how the render ended, the first error,
the reward components), the model's revision, and so on for `turns` replies. The trajectory is
scored on its **last** reply only, by the run's own reward set, through the usual reward
functions (`RolloutScorer` reads the `final_reply` column this rollout adds). The same set is the
one the feedback names; `watercolor.evaluate` reads it back from the run's logged config
(`feedback_rewards`) instead of naming one of its own, so a model is evaluated on the feedback
it trained on.

Why whole trajectories scored on the final reply, and how the token ids are put together: the
comments above `RevisionRollout` and at its loop.

Drafts are painted between the two generations on the loop TRL runs the async reward functions
on (`trainer.async_loop`, the one the render pool belongs to: Playwright objects belong to the
loop that made them); revisions are painted as each finishes, as `watercolor.training.rollout` does.
What is not public API: `rollout_func`, `env_mask` and `trainer.async_loop` are TRL's
experimental surface (see `watercolor.training.rollout`); tests/training/test_revision.py trains
through it. Only the `hf` sampler: `watercolor.train` refuses `task.turns` > 1 with vLLM.
"""

from __future__ import annotations

import time

from watercolor.rewards.trl_adapter import RolloutScorer
from watercolor.tasks import Task
from watercolor.training.rollout import conversation_ids, eos_token_ids, generate

REPLY_MARK = "\u2063REPLY\u2063"  # stands for the sampled reply when rendering what follows it


# Why whole trajectories scored on the final reply (and not one shared draft per group):
# - The draft is trained too: its tokens share the trajectory's advantage, so a draft that makes a
#   good revision possible is reinforced; with a shared draft it would sit in the prompt and never
#   learn.
# - Nothing pays for improvement over the draft: the reward is the final canvas's absolute score. A
#   bad draft on purpose only lowers the final reply's chances, so it is never taught.
# - The group baseline compares trajectories of one prompt, as single-turn GRPO compares replies.
# The cost: the draft's credit is the final reply's, a noisier signal for it than a score of its
# own. The draft's own score is logged (`rollouts/draft_reward`) and never paid.
class RevisionRollout:
    """A TRL `rollout_func`: `turns` replies per trajectory, each after feedback on the last."""

    def __init__(self, scorer: RolloutScorer, task: Task) -> None:
        if task.turns < 2:
            raise ValueError(f"a revision episode has at least 2 turns, got turns={task.turns}")
        self.scorer, self.task, self.turns = scorer, task, task.turns

    def __call__(self, prompts: list, trainer) -> dict[str, list]:
        started = time.perf_counter()
        tokenizer, kwargs = trainer.processing_class, trainer.args.chat_template_kwargs or {}
        prompt_ids = conversation_ids(prompts, tokenizer, kwargs)
        eos_ids = eos_token_ids(trainer.generation_config)
        completion_ids = generate(trainer, prompt_ids)
        env_mask = [[1] * len(ids) for ids in completion_ids]
        conversations = [list(prompt) for prompt in prompts]
        reply_ids = completion_ids
        draft_rewards: list[float | None] = []
        for _ in range(self.turns - 1):
            replies = [tokenizer.decode(ids, skip_special_tokens=True) for ids in reply_ids]
            canvases, scores = self.scorer.paint_and_score(trainer.async_loop, prompts, replies)
            draft_rewards = draft_rewards or [score.total for score in scores]  # logged only
            turn_ids = []
            for i, reply in enumerate(replies):
                text = self.task.feedback(canvases[i], scores[i])
                conversations[i] = self.task.revision_conversation(conversations[i], reply, text)
                ended = bool(reply_ids[i]) and reply_ids[i][-1] in eos_ids
                turn_ids.append(feedback_ids(tokenizer, conversations[i], ended, kwargs))
            contexts = [
                p + c + t for p, c, t in zip(prompt_ids, completion_ids, turn_ids, strict=True)
            ]
            reply_ids = generate(trainer, contexts, on_finished=self._paint_ahead(tokenizer))
            # Token ids are concatenated, never re-tokenised: the completion is the draft's sampled
            # ids, the feedback turn's ids (the chat template's text between the draft and the next
            # generation prompt, tokenised once), then the revision's sampled ids. The feedback ids
            # are masked out of the loss with TRL's `env_mask` (1 = the model's tokens, 0 = the
            # environment's).
            for i, (turn, reply) in enumerate(zip(turn_ids, reply_ids, strict=True)):
                completion_ids[i] = completion_ids[i] + turn + reply
                env_mask[i] = env_mask[i] + [0] * len(turn) + [1] * len(reply)
        final = [tokenizer.decode(ids, skip_special_tokens=True) for ids in reply_ids]
        self.scorer.note_generation(time.perf_counter() - started)
        return {
            "prompt_ids": prompt_ids,
            "completion_ids": completion_ids,
            "logprobs": None,
            "env_mask": env_mask,
            "final_reply": final,
            "draft_reward": draft_rewards,
        }

    def _paint_ahead(self, tokenizer):
        def paint_now(row: int, ids: list[int]) -> None:
            self.scorer.prefetch(tokenizer.decode(ids, skip_special_tokens=True))

        return paint_now


def feedback_ids(tokenizer, episode: list[dict], reply_ended: bool, kwargs: dict) -> list[int]:
    """The ids of what the chat template puts after the reply in `episode` (its messages so far,
    ending with the assistant's reply and the feedback turn): the turn's end, the feedback turn,
    the next generation prompt. The reply's own EOS is left out when it emitted one, and kept
    when it was cut off, so the turn is closed.

    The reply is rendered as a marker and cut after it: templates that rewrite earlier turns
    (Qwen's drop a past turn's thinking) still give the text that follows the sampled ids.
    """
    marked = [*episode[:-2], {"role": "assistant", "content": REPLY_MARK}, episode[-1]]
    text = tokenizer.apply_chat_template(
        marked, tokenize=False, add_generation_prompt=True, **kwargs
    )
    if text.count(REPLY_MARK) != 1:
        raise ValueError(
            "this chat template does not render the assistant's reply as written, so revision "
            "episodes cannot extend the sampled ids with the feedback turn"
        )
    between = text[text.index(REPLY_MARK) + len(REPLY_MARK) :]
    eos = tokenizer.eos_token or ""
    if reply_ended and eos and between.startswith(eos):
        between = between[len(eos) :]
    return tokenizer(between, add_special_tokens=False)["input_ids"]
