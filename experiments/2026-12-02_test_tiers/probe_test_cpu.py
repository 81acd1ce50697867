"""A pytest plugin that records each test's CPU-seconds over its worker's whole process tree.

    PYTHONPATH=experiments/2026-12-02_test_tiers WATERCOLOR_TEST_CPU=/tmp/cpu.jsonl \\
        .venv/bin/python -m pytest -q -n 2 --dist loadfile -m "not slow" -p probe_test_cpu
    .venv/bin/python experiments/2026-12-02_test_tiers/probe_test_cpu.py /tmp/cpu.jsonl

pytest's --durations gives wall time, which on a saturated machine says how a test shared the
cores rather than what it cost. This reads `watercolor.training.step_cpu.tree_cpu` (the worker,
every process below it and their exited, waited-for children: Chromium, Playwright's driver, CLI
subprocesses) before and after each test's setup, call and teardown, and appends one JSON line per
test. The module is also a script: given the file, it prints the CPU by test file (`below`: the
processes below the worker: browsers, the driver, subprocesses) and each worker's cost before its
first test (start-up and collection), so the tier's CPU can be split.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict

import pytest

_OUT = os.environ.get("WATERCOLOR_TEST_CPU")
CLASSES = ("trainer", "chromium", "driver", "other")  # watercolor.training.step_cpu.tree_cpu's


def _cpu() -> dict[str, float]:
    from watercolor.training.step_cpu import tree_cpu

    return tree_cpu()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before, start = _cpu(), time.monotonic()
    yield
    after = _cpu()
    if _OUT:
        spent = {k: round(after[k] - before[k], 3) for k in after}
        wall = round(time.monotonic() - start, 3)
        record = {"test": item.nodeid, "wall_s": wall, "pid": os.getpid(), **spent}
        with open(_OUT, "a") as out:
            out.write(json.dumps(record) + "\n")


def pytest_sessionstart(session):
    if _OUT and hasattr(session.config, "workerinput"):  # an xdist worker: its start-up so far
        with open(_OUT, "a") as out:
            out.write(json.dumps({"worker_start": os.getpid(), **_cpu()}) + "\n")


def pytest_collection_finish(session):
    if _OUT and hasattr(session.config, "workerinput"):
        with open(_OUT, "a") as out:
            out.write(json.dumps({"worker_collected": os.getpid(), **_cpu()}) + "\n")


def report(path: str) -> None:
    files: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    collected = {}
    with open(path) as lines:
        rows = [json.loads(line) for line in lines]
    for row in rows:
        if "worker_collected" in row:
            collected[row["worker_collected"]] = sum(row[k] for k in CLASSES)
            continue
        if "test" not in row:
            continue
        name = row["test"].split("::", 1)[0]
        total = sum(row[k] for k in CLASSES)
        for key, value in (("cpu", total), ("wall", row["wall_s"]), ("tests", 1),
                           ("below", total - row["trainer"])):  # fmt: skip
            files[name][key] += value
    grand = sum(f["cpu"] for f in files.values())
    print(f"{'file':60s} {'tests':>5s} {'cpu s':>8s} {'below':>8s} {'wall s':>8s}")
    for name, f in sorted(files.items(), key=lambda kv: -kv[1]["cpu"]):
        print(f"{name:60s} {int(f['tests']):5d} {f['cpu']:8.1f} {f['below']:8.1f} {f['wall']:8.1f}")
    print(f"in tests: {grand:.1f} CPU-s over {sum(int(f['tests']) for f in files.values())} tests")
    before = {pid: round(cpu, 1) for pid, cpu in collected.items()}
    print("each worker's start-up and collection, CPU-s:", before)


if __name__ == "__main__":
    report(sys.argv[1])
