"""Pairwise judges and the win-rate reward component that uses them against a reference pool.

    >>> from watercolor.rewards.judges import PixelJudge, VLMJudge, judge_winrate
    >>> from watercolor.rewards.reference_pool import load_pool
    >>> judge = VLMJudge("http://127.0.0.1:8001/v1", "Qwen/Qwen3-VL-30B-A3B-Instruct")
    >>> judge = PixelJudge()                               # or offline
    >>> judge_winrate(group, judge=judge, pool=load_pool(), n_references=4, seed=0)
    [0.625, 0.5, 0.0, None]

Modules: `judge` (the interface: `compare(a_png, b_png) -> "A" | "B" | "tie" | None`),
`winrate` (the group component: both orders, ties and splits 0.5), `pixel` (offline, from the
fine-grained pixel features), `vlm` (a vision-language model behind an OpenAI-compatible
endpoint such as `vllm serve`). Reward sets compose them from `conf/reward/blocks/judge/`
(hps_led, judge_led: vlm; pixel_judge: pixel).
"""

from watercolor.rewards.judges.judge import VERDICTS, Judge, Verdict
from watercolor.rewards.judges.pixel import PixelJudge
from watercolor.rewards.judges.vlm import VLMJudge
from watercolor.rewards.judges.winrate import judge_winrate

__all__ = ["VERDICTS", "Judge", "PixelJudge", "VLMJudge", "Verdict", "judge_winrate"]
