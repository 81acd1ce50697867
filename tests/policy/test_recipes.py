"""The real-model recipes (conf/model/qwen3_5_*.yaml) on tiny models of their own classes.

Fast: every model config's build path (a hub id / directory string, or a `_target_` node), and
each recipe's LoRA on a randomly initialised tiny model of its class: which modules it reaches.
Slow: two GRPO steps of each recipe through `python -m watercolor.train`, the adapter saved and
loaded back with the checked loader; `watercolor.evaluate` on a recipe model.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hydra.utils import instantiate
from peft import PeftModel, get_peft_model
from transformers import Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration

from watercolor.config import CONF_DIR, compose_train, model_source
from watercolor.policy.loading import load_policy, lora_reach
from watercolor.tasks.painting.painter import tiny
from watercolor.tasks.painting.painter.tiny_qwen35 import (
    CHAT_TEMPLATE,
    DENSE,
    MOE,
    ensure_tiny_qwen35,
    new_model,
    qwen35_tokenizer,
)
from watercolor.training.job import build_policy

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "outputs" / "cache"  # built once per machine, like the tiny painter
RECIPES = {
    "qwen3_5_35b_a3b": (MOE, Qwen3_5MoeForConditionalGeneration),
    "qwen3_5_4b": (DENSE, Qwen3_5ForConditionalGeneration),
}
# What a CPU needs and nothing else: no bf16, short replies, two steps, small canvases.
CPU_OVERRIDES = [
    "model.dtype=float32",
    "trainer.bf16=false",
    "trainer.max_steps=2",
    "trainer.max_completion_length=256",
    "renderer.pixel_density=0.5",
    "renderer.time_limit_s=8.0",
]


def model_names() -> list[str]:
    return sorted(p.stem for p in (CONF_DIR / "model").glob("*.yaml"))


@pytest.fixture(scope="module", params=sorted(RECIPES))
def random_recipe_model(request, tmp_path_factory) -> tuple[str, Path]:
    """(recipe, directory): a randomly initialised tiny model of the recipe's class (seconds)."""
    config, _ = RECIPES[request.param]
    tokenizer = qwen35_tokenizer(["function setup() { brush.fill('#e8665a', 150); }"] * 4, 300)
    out = tmp_path_factory.mktemp(request.param)
    new_model(config, tokenizer).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return request.param, out


def test_every_model_config_names_a_source_a_user_can_override():
    for name in model_names():
        assert model_source(compose_train([f"model={name}", "model.name_or_path=/x"]).model) == "/x"


def test_a_target_node_is_built(tmp_path):
    # tiny.cache_dir takes ensure_tiny_model's arguments and names the directory it would build.
    cfg = compose_train(
        [
            "model=tiny",
            "model.name_or_path._target_=watercolor.tasks.painting.painter.tiny.cache_dir",
        ]
    )
    cfg.model.name_or_path.cache_root = str(tmp_path)
    expected = tiny.cache_dir(instantiate(cfg.model.name_or_path.config), tmp_path)
    assert model_source(cfg.model) == str(expected)


def test_recipe_lora_reaches_the_experts_not_the_vision_tower(random_recipe_model):
    recipe, path = random_recipe_model
    cfg = compose_train([f"model={recipe}", f"model.name_or_path={path}", "model.dtype=float32"])
    base, _, peft_config = build_policy(cfg.model)
    model = get_peft_model(base, peft_config)  # what GRPOTrainer(peft_config=...) does with it
    assert isinstance(model, PeftModel)
    assert type(model.get_base_model()) is RECIPES[recipe][1]
    reach = lora_reach(model)
    assert not [name for name in reach if ".visual." in name]
    experts = [name for name in reach if ".mlp.experts." in name]
    layers = model.get_base_model().config.text_config.num_hidden_layers
    assert len(experts) == (2 * layers if recipe == "qwen3_5_35b_a3b" else 0)
    kinds = {name.rsplit(".", 1)[-1] for name in reach}
    assert {"q_proj", "in_proj_qkv", "out_proj"} <= kinds  # full and linear attention


def test_plain_all_linear_misses_the_experts_and_adapts_the_tower(random_recipe_model):
    """Why the recipes say more than `all-linear` (the anchor's setting)."""
    recipe, path = random_recipe_model
    model, _ = load_policy(path, lora={"target_modules": "all-linear"}, dtype="float32")
    reach = lora_reach(model)
    assert [name for name in reach if ".visual." in name]
    assert not [name for name in reach if ".mlp.experts." in name]


def test_chat_template_switches_thinking_as_qwen35_does():
    tokenizer = qwen35_tokenizer(["hello world"] * 4, 280)
    messages = [{"role": "user", "content": "paint"}]
    prompt = tokenizer.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=True, enable_thinking=False
    )
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    thinking = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert thinking.endswith("<|im_start|>assistant\n<think>\n")
    assert tokenizer.chat_template == CHAT_TEMPLATE
    assert len(tokenizer.tokenize("</think>")) == 1


# --- slow: the recipes run as shipped -----------------------------------------------------------


def run_module(module: str, tmp: Path, *overrides: str, timeout: int = 900) -> None:
    """`python -m <module> ...` as a user runs it, writing only under `tmp`."""
    command = [
        sys.executable, "-m", module, *overrides,
        f"tracking.uri=sqlite:///{tmp}/mlflow.db", f"tracking.artifacts={tmp}/artifacts",
        f"hydra.run.dir={tmp}/run",
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    result = subprocess.run(
        command, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, result.stderr[-4000:]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1200)  # a first use builds the model (~1 min of CPU; more on a busy machine)
@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_recipe_trains_two_grpo_steps_and_its_adapter_reloads(recipe, tmp_path):
    config, model_class = RECIPES[recipe]
    path = ensure_tiny_qwen35(config, CACHE, progress=False)  # ~3 min on first use
    run_module("watercolor.train", tmp_path, f"model={recipe}", f"model.name_or_path={path}",
               *CPU_OVERRIDES)  # fmt: skip

    model, _ = load_policy(tmp_path / "run" / "final", local_files_only=True)  # checked loader
    assert type(model.get_base_model()) is model_class
    reach = lora_reach(model)
    assert reach and not [name for name in reach if ".visual." in name]
    lora_b = {name: p for name, p in model.named_parameters() if "lora_B" in name}
    # LoRA's B starts at zero: a non-zero B is a weight that GRPO moved.
    assert [name for name, p in lora_b.items() if not p.any()] == []
    experts = [name for name in lora_b if ".mlp.experts." in name]
    assert bool(experts) == (recipe == "qwen3_5_35b_a3b")


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1200)
def test_evaluate_samples_a_recipe_model(tmp_path):
    path = ensure_tiny_qwen35(MOE, CACHE, progress=False)
    run_module("watercolor.evaluate", tmp_path, "model=qwen3_5_35b_a3b",
               f"model.name_or_path={path}", "model.dtype=float32", "num_prompts=1", "samples=2",
               "rewards=[coarse]", "generation.max_new_tokens=64", "renderer.pixel_density=0.5",
               "renderer.time_limit_s=8.0")  # fmt: skip
    samples = pd.read_csv(tmp_path / "run" / "samples.csv")
    assert len(samples) == 2 and samples["completion_tokens"].min() > 0
