"""The overlapped rollout's EOS watcher: each row handed over once, at the step it finishes."""

from __future__ import annotations

import torch

from watercolor.training.rollout import FinishedRows, until_eos

EOS, PAD = 9, 0


def test_each_row_is_handed_over_once_at_its_eos_step():
    finished = []
    watcher = FinishedRows(
        prompt_length=2, eos_ids=[EOS], on_finished=lambda r, ids: finished.append((r, ids))
    )
    steps = [
        [[1, 1, 5], [1, 1, 6], [1, 1, 7]],
        [[1, 1, 5, EOS], [1, 1, 6, 6], [1, 1, 7, 7]],
        [[1, 1, 5, EOS, PAD], [1, 1, 6, 6, EOS], [1, 1, 7, 7, 7]],
        [[1, 1, 5, EOS, PAD, PAD], [1, 1, 6, 6, EOS, PAD], [1, 1, 7, 7, 7, 7]],
    ]
    for ids in steps:
        stop = watcher(torch.tensor(ids), scores=None)
        assert not stop.any()  # it never stops generation itself
    assert finished == [(0, [5, EOS]), (1, [6, 6, EOS])]  # row 2 never finished: not handed over


def test_completions_end_at_the_first_eos():
    assert until_eos([4, 5, EOS, PAD, PAD], {EOS}) == [4, 5, EOS]
    assert until_eos([4, 5, 6], {EOS}) == [4, 5, 6]  # cut off: all of it
