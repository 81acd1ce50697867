"""`python -m watercolor.bench.gpu`: its estimate's arithmetic, and its whole path on a CPU.

The GPU figures themselves need an H200; here the same code runs on the tiny recipe models
(`--device cpu --tiny`), and a machine without CUDA refuses the full-size run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from watercolor.bench import gpu as bench_gpu
from watercolor.bench import gpu_cost
from watercolor.bench.gpu import fit_update, step_estimate
from watercolor.bench.gpu_cost import require_device

REPO = Path(__file__).resolve().parents[2]
TINY_RUN = ["--device", "cpu", "--tiny", "--json", "--batch", "2", "--prompt-tokens", "24",
            "--decode-steps", "4", "--completion-tokens", "4", "12", "--repeats", "1"]  # fmt: skip
FIGURES = {
    "recipe", "class", "device", "dtype", "parameters", "trainable_parameters", "build_s",
    "generation", "generation_lora", "update", "peak_gib", "versions", "kernels",
    "implementations", "estimate", "activation_checkpointing",
}  # fmt: skip


@pytest.mark.parametrize(
    ("prefill_s", "decode_ms", "fit", "reply", "render", "generation", "update", "step"),
    [
        # generation = prefill + reply x decode; update = intercept + slope x (812 + reply)
        (1.0, 100.0, (0.0, 0.001), 1024, 69.0, 103.4, 1.8, 174.2),
        (1.0, 100.0, (0.0, 0.001), 8192, 96.0, 820.2, 9.0, 925.2),
        (0.5, 161.5, (0.5, 0.002), 2048, 0.0, 331.3, 6.2, 337.5),
        (0.0, 0.0, (2.0, 0.0), 4096, 80.0, 0.0, 2.0, 82.0),
    ],
)
def test_step_estimate_adds_generation_render_and_update(
    prefill_s, decode_ms, fit, reply, render, generation, update, step
):
    [row] = step_estimate(prefill_s, decode_ms, fit, 812, reply_tokens=[reply], render_s=[render])
    assert row["generation_s"] == generation
    assert row["update_s"] == update
    assert row["step_s"] == step
    assert row["steps_per_hour"] == round(3600 / step, 1)


def test_step_estimate_has_a_row_per_reply_length_and_render_figure():
    rows = step_estimate(1.0, 100.0, (0.0, 0.001), 812)
    assert [(r["reply_tokens"], r["render_s"]) for r in rows] == [
        (reply, render) for reply in bench_gpu.REPLY_TOKENS for render in (69.0, 96.0)
    ]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([{"sequence_tokens": 1000, "update_s": 2.0}], (0.0, 0.002)),
        ([{"sequence_tokens": 1000, "update_s": 3.0}, {"sequence_tokens": 2000, "update_s": 5.0}],
         (1.0, 0.002)),
        # an out-of-memory length carries no time and is left out of the fit
        ([{"sequence_tokens": 1000, "update_s": 2.0}, {"sequence_tokens": 9000, "error": "oom"}],
         (0.0, 0.002)),
    ],
)  # fmt: skip
def test_update_time_is_a_line_through_the_measured_lengths(rows, expected):
    assert fit_update(rows) == pytest.approx(expected)


def test_the_command_reads_its_arguments_before_torch_loads():
    # A typo answers at once (tests/test_usage.py has the case): 9-10 s here when the
    # measuring code, torch and transformers loaded first.
    loaded = "sorted(m for m in ('torch', 'transformers', 'peft') if m in sys.modules)"
    code = f"import sys; from watercolor.bench import gpu; gpu.parse_args([]); print({loaded})"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr[-2000:]


def test_one_slow_prefill_does_not_make_a_decode_step_negative(monkeypatch):
    # CI's loaded machine once timed a one-token generation at 1.1 s and four tokens at 0.17 s:
    # the decode step came out -313 ms. The prefill is the fastest of its tries.
    class Model:
        config = type(
            "Config",
            (),
            dict.fromkeys(
                (
                    "image_token_id",
                    "video_token_id",
                    "vision_start_token_id",
                    "vision_end_token_id",
                ),
                9,
            ),
        )

        def generate(self, prompt, max_new_tokens, **options):
            return torch.zeros(prompt.shape[0], prompt.shape[1] + max_new_tokens)

    seconds = iter([0.05, 1.1] + [0.04] * (gpu_cost.PREFILL_TRIES - 1) + [0.166])  # warm-up first
    monkeypatch.setattr(gpu_cost, "timed", lambda fn, device: (fn(), next(seconds)))
    figures = gpu_cost.time_generation(Model(), torch.zeros(2, 3), 4, {}, torch.device("cpu"))
    assert figures["prefill_s"] == 0.04 and figures["decode_ms_per_step"] == pytest.approx(42.0)


@pytest.mark.parametrize(
    ("device", "tiny", "refused"),
    [("cpu", True, False), ("cpu", False, True), ("cuda", True, True), ("cuda", False, True)],
)
@pytest.mark.skipif(torch.cuda.is_available(), reason="checks a machine without CUDA")
def test_without_cuda_only_the_tiny_cpu_run_is_allowed(device, tiny, refused):
    if not refused:
        require_device(device, tiny)
        return
    with pytest.raises(SystemExit, match="--tiny"):
        require_device(device, tiny)


@pytest.mark.slow
def test_tiny_cpu_run_reports_every_figure():
    result = subprocess.run(
        [sys.executable, "-m", "watercolor.bench.gpu", *TINY_RUN],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(figures) >= FIGURES
    assert figures["class"] == "Qwen3_5MoeForConditionalGeneration"
    assert figures["activation_checkpointing"] is True
    assert 0 < figures["trainable_parameters"] < figures["parameters"]
    for generation in (figures["generation"], figures["generation_lora"]):
        assert generation["prefill_s"] > 0 and generation["decode_ms_per_step"] > 0
    assert [row["completion_tokens"] for row in figures["update"]] == [4, 12]
    assert all(row["update_s"] > 0 for row in figures["update"])
    assert set(figures["kernels"]) == {"flash_linear_attention", "causal_conv1d"}
    assert {"torch", "transformers", "peft", "triton"} <= set(figures["versions"])
    assert len(figures["estimate"]) == len(bench_gpu.REPLY_TOKENS) * 2
