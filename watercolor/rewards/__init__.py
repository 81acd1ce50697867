"""Reward components (pure functions of a Canvas) and the reward sets that weight and gate them.

    >>> from watercolor.rewards.texture import edge_softness
    >>> from watercolor.rewards.reward_set import RewardSet
    >>> RewardSet({"edge_softness": {"weight": 1.0, "fn": edge_softness}}).score(canvas).total
    0.83

Components are grouped by what they measure: `execution` (did it run), `coverage` (how much is
painted), `texture` (fine-grained watercolour qualities), `cheats` (anti-cheat), `adherence`
(the prompt's colours), `palette` (coarse colour match), `diversity` (within a GRPO group).
`pixels` is the shared working view they measure on; `conf/reward/*.yaml` are the sets.
"""
