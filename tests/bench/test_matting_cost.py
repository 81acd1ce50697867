"""`bench matting_cost` measures what a second paper costs (it asserts no speed: goals live in the
bench)."""

import argparse

import pytest

from watercolor.bench.matting_cost import bench_matting
from watercolor.tasks.painting import SAMPLES_DIR

pytestmark = pytest.mark.browser


@pytest.mark.slow  # the benchmark run end to end, ~23 s (command 2's budget, issue 45)
def test_the_twin_is_painted_and_timed_beside_the_single_render(tmp_path):
    (tmp_path / "hibiscus.js").write_text((SAMPLES_DIR / "hibiscus.js").read_text())
    args = argparse.Namespace(sketches=tmp_path, repeat=1, time_limit=60.0)
    figures = bench_matting(args)
    assert figures["replies"] == 1
    assert figures["single_cpu_s"] > 0 and figures["twin_cpu_s"] > figures["single_cpu_s"]
    assert figures["twin_cpu_ratio"] == pytest.approx(
        figures["twin_cpu_s"] / figures["single_cpu_s"], abs=0.01
    )
    assert figures["matting_score_ms"] > 0
