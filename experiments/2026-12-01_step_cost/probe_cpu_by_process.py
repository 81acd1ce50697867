"""CPU seconds by process class (trainer, Chromium GPU / renderer / browser, ...) while a job runs.

    python3 experiments/2026-12-01_step_cost/probe_cpu_by_process.py > split.txt &
    <run the job>; kill %1    # SIGTERM prints the table

Samples /proc once a second; a process that starts after the sampler counts from zero.
"""

import collections
import os
import signal
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")
CLASSES = [  # (substring of the command line, class), first match wins
    ("--type=gpu-process", "chrome-gpu"),
    ("--type=renderer", "chrome-renderer"),
    ("--type=", "chrome-other"),
    ("chrom", "chrome-browser"),
    ("watercolor.train", "trainer"),
    ("playwright", "pw-driver"),
    ("python", "python-other"),
]
seen: dict[tuple[str, str], list] = {}  # (pid, start time) -> [class, CPU s at last sample]
total: collections.Counter = collections.Counter()
started = time.clock_gettime(time.CLOCK_BOOTTIME) * HZ


def classify(pid: str) -> str | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    return next((name for key, name in CLASSES if key in cmd), "other")


def sample() -> None:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu, start = (int(fields[11]) + int(fields[12])) / HZ, fields[19]
        if (pid, start) not in seen:
            name = classify(pid)
            if name is None:
                continue
            seen[pid, start] = [name, cpu if int(start) < started else 0.0]
        name, last = seen[pid, start]
        total[name] += cpu - last
        seen[pid, start][1] = cpu


def report(*_) -> None:
    sample()
    everything = sum(total.values())
    for name, seconds in total.most_common():
        print(f"{name:16s} {seconds:8.1f} core-s {seconds / everything:6.1%}")
    print(f"total {everything:.1f}")
    sys.exit(0)


signal.signal(signal.SIGTERM, report)
while True:
    sample()
    time.sleep(1)
