"""The tiny painter: tokenizer and cache naming (fast), then a real smoke-scale build (slow)."""

import os
import subprocess
import sys
import time
from dataclasses import replace

import pytest
import torch
from hydra.utils import instantiate
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM, AutoTokenizer

from watercolor import cores
from watercolor.config import compose_train
from watercolor.cores import cpu_times, idle_cores, torch_threads
from watercolor.policy.builder import BUILD_INFO, read_build_info, record_text, train_tokenizer
from watercolor.tasks.painting.painter.corpus import Mixture, generate_corpus
from watercolor.tasks.painting.painter.tiny import (
    DEFAULT,
    SMOKE,
    TinyConfig,
    cache_dir,
    config_hash,
    ensure_tiny_model,
    training_records,
)

PROMPT = [{"role": "user", "content": "paint a crimson hibiscus in watercolour"}]


@pytest.fixture(scope="module")
def tokenizer():
    texts = [e.prompt + "\n" + e.reply for e in generate_corpus(120, seed=0)]
    return train_tokenizer(texts, vocab_size=1024)


def test_config_hash_names_the_build():
    assert config_hash(SMOKE) == config_hash(replace(SMOKE))
    assert config_hash(SMOKE) != config_hash(replace(SMOKE, steps=SMOKE.steps + 1))
    assert config_hash(TinyConfig()) != config_hash(replace(TinyConfig(), prompts=("paint a fig",)))
    assert cache_dir(SMOKE, "/x").as_posix() == f"/x/tiny-{config_hash(SMOKE)}"


def test_config_takes_what_a_config_system_hands_over():
    config = TinyConfig(mixture={"layered": 1.0, "flat": 0.0}, prompts=["paint a fig"])
    assert config.mixture == Mixture(layered=1.0, flat=0.0) and config.prompts == ("paint a fig",)
    assert config_hash(config) == config_hash(replace(config))


def test_tokenizer_round_trips_and_keeps_code_lines_short(tokenizer):
    reply = generate_corpus(3, seed=9)[0].reply
    assert tokenizer.decode(tokenizer.encode(reply)) == reply
    assert len(tokenizer.encode("  brush.vertex(-12, 35);\n")) <= 6


def test_the_longest_corpus_reply_fits_the_training_completion_limit():
    # A complete long layered reply must never be cut off (a cut-off reply paints nothing): the
    # default corpus's longest reply, in the default tokenizer, stays under 90 % of the limit.
    records = training_records(DEFAULT)
    tokenizer = train_tokenizer([record_text(r) for r in records], DEFAULT.vocab_size)
    longest = max(len(tokenizer.encode(r["completion"][0]["content"])) for r in records)
    limit = compose_train().trainer.max_completion_length
    assert longest <= 0.9 * limit, (longest, limit)


def test_chat_template_prompt_is_a_prefix_of_the_conversation(tokenizer):
    # TRL finds the completion where prompt and prompt+completion tokens diverge.
    reply = [{"role": "assistant", "content": "```js\nfunction setup() {\n}\n```"}]
    prompt_ids = tokenizer.apply_chat_template(
        PROMPT, add_generation_prompt=True, return_dict=False
    )
    full_ids = tokenizer.apply_chat_template(PROMPT + reply, return_dict=False)
    assert full_ids[: len(prompt_ids)] == prompt_ids
    assert tokenizer.eos_token == "<|im_end|>" and tokenizer.eos_token_id in full_ids
    assert tokenizer.pad_token_id not in full_ids


@pytest.mark.slow
def test_build_is_cached_and_reused(smoke_model, tiny_cache):
    assert smoke_model == cache_dir(SMOKE, tiny_cache)
    built_at = (smoke_model / BUILD_INFO).stat().st_mtime_ns
    start = time.perf_counter()
    assert ensure_tiny_model(SMOKE, tiny_cache) == smoke_model
    assert time.perf_counter() - start < 5  # a rebuild takes minutes; the mtime below says it too
    assert (smoke_model / BUILD_INFO).stat().st_mtime_ns == built_at
    assert [p.name for p in tiny_cache.iterdir()] == [smoke_model.name]  # no temp dirs left


@pytest.mark.slow
def test_warm_start_lowers_the_loss(smoke_model):
    info = read_build_info(smoke_model)
    first, last = info["losses"][0]["loss"], info["losses"][-1]["loss"]
    assert last < first - 1.5, info["losses"]
    assert info["parameters"] > 100_000 and info["wall_s"] > 0


@pytest.mark.slow
def test_loads_offline_like_a_hub_model(smoke_model, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = AutoModelForCausalLM.from_pretrained(smoke_model, local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(smoke_model, local_files_only=True)
    assert type(model).__name__ == "Qwen3ForCausalLM"
    assert model.config.tie_word_embeddings and model.dtype == torch.float32
    assert sum(p.numel() for p in model.parameters()) == read_build_info(smoke_model)["parameters"]
    assert tokenizer.eos_token_id == model.generation_config.eos_token_id
    text = tokenizer.apply_chat_template(PROMPT, add_generation_prompt=True, tokenize=False)
    assert text.endswith("<|im_start|>assistant\n")


@pytest.mark.slow
def test_the_warm_started_model_writes_brush_code(smoke_model):
    model = AutoModelForCausalLM.from_pretrained(smoke_model)
    tokenizer = AutoTokenizer.from_pretrained(smoke_model)
    inputs = tokenizer.apply_chat_template(
        PROMPT, add_generation_prompt=True, return_tensors="pt", return_dict=True
    )
    torch.manual_seed(0)
    with torch_threads(None), torch.no_grad():
        out = model.generate(
            **inputs, max_new_tokens=48, do_sample=True, top_k=20, num_return_sequences=8
        )
    replies = [tokenizer.decode(row[inputs["input_ids"].shape[1] :]) for row in out]
    # The smoke model is 40 SFT steps old: judged on a group of replies, not on one draw (an
    # untrained model writes neither the fence nor `brush.`; this one: 3-4 and 7-8 of 8).
    assert sum(r.startswith("```js") for r in replies) >= 2, replies
    assert sum("brush." in r for r in replies) >= 6, replies


def test_training_builds_the_default_painter_the_package_defines():
    # One source: conf/model/tiny.yaml names TinyConfig and sets nothing, so `watercolor.train`
    # builds (and caches under the same hash) exactly tiny.DEFAULT, the model every figure of the
    # default refers to.
    built = instantiate(compose_train(["paths.cache=/tmp/unused"]).model.name_or_path.config)
    assert built == DEFAULT and config_hash(built) == config_hash(DEFAULT)


@pytest.mark.parametrize(
    ("load_average", "busy_ticks", "expected"),
    [
        (1.2, 2, 2),  # pip has just finished: the load average remembers it, the cores are free
        (0.1, 50, 1),  # a job has just started on one core: the load average has not seen it
        (0.1, 100, 1),  # both cores busy: still one thread
    ],
)
def test_idle_cores_counts_what_runs_now(monkeypatch, load_average, busy_ticks, expected):
    # Over the sampled window 2 cores have 100 ticks between them; `busy_ticks` were used.
    samples = iter([(1000, 5000), (1000 + busy_ticks, 5100)])
    monkeypatch.setattr(cores, "cpu_times", lambda: next(samples))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (load_average, load_average, load_average))
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    assert idle_cores() == expected


def test_cpu_times_reads_this_machine():
    busy, total = cpu_times()
    time.sleep(0.1)
    later_busy, later_total = cpu_times()
    assert 0 < busy <= total and busy <= later_busy and total < later_total
    assert 1 <= idle_cores() <= os.cpu_count()


def test_counting_the_idle_cores_imports_no_torch():
    # Every set-up run calls `python -m watercolor.cores`; torch and transformers cost ~6 s.
    heavy = "{'torch', 'transformers'}"
    code = f"import sys, watercolor.cores; print(sorted({heavy} & set(sys.modules)))"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


@pytest.mark.slow
def test_the_thread_count_changes_only_float_rounding(smoke_model, tmp_path):
    # Not in the hash, so it must not change the model beyond rounding: a thread count repeats
    # its weights bit for bit, another sums in another order (1 vs 2 threads: 1.4e-5 at most).
    threads = 1 if read_build_info(smoke_model)["threads"] > 1 else 2
    other = ensure_tiny_model(SMOKE, tmp_path, threads=threads, progress=False)
    assert read_build_info(other)["threads"] == threads and other.name == smoke_model.name
    assert (other / "tokenizer.json").read_bytes() == (smoke_model / "tokenizer.json").read_bytes()
    ours, theirs = (load_file(path / "model.safetensors") for path in (smoke_model, other))
    for name, weights in ours.items():
        torch.testing.assert_close(theirs[name], weights, rtol=1e-3, atol=1e-4)
