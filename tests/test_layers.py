"""The house's layers: imports run one way, from the bottom up, and nothing goes round in a cycle.

Every module of `watercolor/` belongs to a layer (its first name under the package); a module
imports only from its own layer and the layers below it (`LAYERS`, bottom first). Imports inside
functions count: they dodge import cost, not the dependency. Imports under `TYPE_CHECKING` do not:
they name a type and run nothing. Command lines (`COMMANDS`) sit above every layer, as the
`python -m` entry points at the top of the package do: they may compose anything, and nothing but
another command line imports them. `tests/tasks/test_task_boundary.py` holds the other rule of
the seam (nothing outside `tasks/` imports a task package).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "watercolor"

LAYERS = (
    "canvas", "config", "usage", "cores",  # the record every layer shares, config, CLI errors
    "policy",      # loading models (+ LoRA), the tiny-model builder
    "render",      # the Chromium pool, given a task's harness
    "rewards",     # pure components over a Canvas, reward sets, the TRL adapter
    "tracking",    # the MLflow store: run ids, metric names, logging
    "analysis",    # reading records: no torch, no task (test_analysis_imports_no_model_stack)
    "tasks",       # one package a task: prompts, gate, harness, episode, style, its painter
    "env",         # the OpenEnv server and client
    "evaluation",  # sampling a model, painting and scoring its replies
    "training",    # the GRPO job's parts and the study around many jobs
    "bench",       # one benchmark a module
    "score", "compare", "evaluate", "train", "audit",  # `python -m` entry points
)  # fmt: skip

# Command lines inside a layer: each composes a task, a pool and models from above its layer.
COMMANDS = {
    "watercolor.render.__main__": "python -m watercolor.render: builds the configured task",
    "watercolor.render.cli": "the render and score CLIs' task and pool, from the command line",
    "watercolor.env.serve": "python -m watercolor.env.serve",
    "watercolor.rewards.reference_pool.__main__": "python -m watercolor.rewards.reference_pool",
    "watercolor.rewards.reference_pool.build": "renders painting's reference sketches for it",
    "watercolor.tasks.painting.painter.kinds": "samples the warm start through evaluation",
    "watercolor.tasks.painting.calibration": "python -m watercolor.tasks.painting.calibration",
    "watercolor.tasks.painting.translucency_calibration": "its calibration command",
}

HEAVY = ("torch", "transformers", "peft", "trl", "vllm")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, ast.Module]:
    """Every module but the package's own `__init__` (it imports nothing of ours)."""
    found = {module_name(p): ast.parse(p.read_text()) for p in sorted(PACKAGE.rglob("*.py"))}
    return {name: tree for name, tree in found.items() if name != "watercolor"}


def imports(tree: ast.Module) -> set[str]:
    """Every module this one imports, anywhere but under `if TYPE_CHECKING:`."""
    typing_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and getattr(branch.test, "id", "") == "TYPE_CHECKING"
        for statement in branch.body
        for node in ast.walk(statement)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "watercolor":  # `from watercolor import usage`
                found |= {f"watercolor.{a.name}" for a in node.names}
            else:
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names}  # may name modules
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def layer(module: str) -> str:
    return module.split(".")[1]


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: {m for m in imports(tree) if m in found} - {name} for name, tree in found.items()}


def test_every_module_has_a_layer():
    unplaced = sorted({layer(m) for m in modules()} - set(LAYERS))
    assert not unplaced, f"place these in LAYERS (bottom first): {unplaced}"


def test_imports_run_down_the_layers():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = [
        f"{module} -> {target}"
        for module, targets in graph().items()
        if module not in COMMANDS
        for target in targets
        if rank[layer(target)] > rank[layer(module)]
    ]
    assert not upward, "imports that go up a layer:\n" + "\n".join(sorted(upward))


def test_only_command_lines_import_command_lines():
    entry_points = {
        f"watercolor.{name}" for name in ("score", "compare", "evaluate", "train", "audit")
    }
    callers = [
        f"{module} -> {target}"
        for module, targets in graph().items()
        if module not in COMMANDS and module not in entry_points and layer(module) != "bench"
        for target in targets & (set(COMMANDS) | entry_points)
    ]
    assert not callers, "modules importing a command line:\n" + "\n".join(sorted(callers))


def test_no_import_cycles():
    edges = graph()
    # Tarjan-free check: a module reaches itself only through a cycle.
    cycles = set()
    for start in edges:
        seen, frontier = set(), set(edges[start])
        while frontier:
            seen |= frontier
            if start in frontier:
                cycles.add(start)
                break
            frontier = set(itertools.chain.from_iterable(edges[m] for m in frontier)) - seen
    assert not cycles, f"modules on an import cycle: {sorted(cycles)}"


def test_analysis_imports_no_model_stack_and_no_task():
    found = {
        f"{module} -> {target}"
        for module, tree in modules().items()
        if module.startswith("watercolor.analysis")
        for target in imports(tree)
        if target.split(".")[0] in HEAVY
        or target.startswith(("watercolor.tasks", "watercolor.policy", "watercolor.training"))
    }
    assert not found, "analysis reaching a model, a task or training:\n" + "\n".join(sorted(found))


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_listed_is_there(command):
    assert command in modules(), f"{command} is gone: take it off COMMANDS"
