"""How many torch threads a job should take: the cores idle right now.

    >>> idle_cores()          # 2 on an idle 2-core machine, 1 while another job runs
    >>> with torch_threads(None):  # idle_cores() threads inside, torch's own count after
    ...     model.generate(...)
    $ python -m watercolor.cores   # prints idle_cores(), for scripts/setup.sh

On a shared machine torch's default of one thread per core is the worst choice: OpenMP threads
spin waiting for each other on busy cores, and a step runs several times slower than with
fewer threads (measured here: 2 threads 4-14 s a step, 1 thread 0.6-1 s). The count is
measured now (CPU time over half a second, `psutil.cpu_times`), not from the 1-minute load average:
that still counts a `pip install` which has just finished (~1 on 2 cores), and set-up then
built the painter at one thread of two (~23 min instead of ~7).

This is the one home of the count: the embedded painter's build takes it when it is given
no thread count (`watercolor.policy.builder.build_once`), set-up passes it explicitly
(`python -m watercolor.tasks.painting.painter.tiny --threads N`), and `build.json` records the
count a build ran on. Another thread count sums floats in another order (smoke scale, 1 vs 2
threads: 1.4e-5 at most; each count repeats bit for bit;
`tests/tasks/painting/painter/test_tiny.py`), and
the default's 300 SFT steps can carry that into a model that writes differently: the 2-thread build
passes the gate on 82 % of replies, the study design's earlier build (its thread count unrecorded)
93 %; the likely cause, not shown (`experiments/2026-12-01_three_rewards_v2/`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

import psutil


def idle_cores() -> int:
    """Cores not busy right now (CPU time used over the last half second), at least 1."""
    cores = os.cpu_count() or 1
    busy_before, total_before = cpu_times()
    time.sleep(0.5)
    busy_after, total_after = cpu_times()
    if total_after <= total_before:  # no time counted (a clock too coarse): torch's own default
        return cores
    busy_share = (busy_after - busy_before) / (total_after - total_before)
    return max(1, min(cores, round(cores * (1 - busy_share))))


def cpu_times() -> tuple[float, float]:
    """(busy, total) CPU time of all cores since boot, in seconds (`psutil.cpu_times`; on Linux
    the first line of /proc/stat)."""
    # Not psutil.cpu_percent: it counts steal (time the hypervisor gave other machines) as busy,
    # and no thread here can use it, so it is left out of both. nice, iowait, irq and softirq
    # are Linux's fields (nice macOS's too; 0 where a platform lacks one).
    t = psutil.cpu_times()
    nice, iowait, irq, softirq = (getattr(t, f, 0.0) for f in ("nice", "iowait", "irq", "softirq"))
    busy = t.user + nice + t.system + irq + softirq
    return busy, busy + t.idle + iowait


@contextlib.contextmanager
def torch_threads(threads: int | None) -> Iterator[None]:
    """Run with `threads` intra-op threads (None: `idle_cores()`), then restore torch's."""
    # Imported here: torch costs ~6 s, which `python -m watercolor.cores` (each set-up run)
    # does not need to count the idle cores.
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(threads or idle_cores())
    try:
        yield
    finally:
        torch.set_num_threads(before)


if __name__ == "__main__":
    print(idle_cores())
