"""The house's layers: imports run one way, from the bottom up, and nothing goes round in a cycle.

Every module of `watercolor/` belongs to a layer (its first name under the package); a module
imports only from its own layer and the layers below it (`LAYERS`, bottom first). Imports inside
functions count: they dodge import cost, not the dependency. Imports under `TYPE_CHECKING` do not:
they name a type and run nothing. Relative imports count as what they resolve to. Command lines
sit above every layer and may compose anything: the `python -m` entry points at the top of the
package (`ENTRY_POINTS`) and every package's `__main__.py` (Python's own name for a package's
command line: `python -m watercolor.render` runs `render/__main__.py`). Nothing but another
command line imports them. There is no list of exemptions: a module inside a layer that needs
to reach above it is a command, and moves into its package's `__main__.py`.
`tests/tasks/test_task_boundary.py` holds the other rule of the seam (nothing outside `tasks/`
imports a task package).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "watercolor"

LAYERS = (
    "canvas", "config", "usage", "cores",  # the record every layer shares, config, CLI errors
    "policy",      # loading models (+ LoRA), the tiny-model builder
    "render",      # the Chromium pool given a task's harness; renderers local and remote
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
ENTRY_POINTS = {f"watercolor.{name}" for name in ("score", "compare", "evaluate", "train", "audit")}

HEAVY = ("torch", "transformers", "peft", "trl", "vllm")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, tuple[ast.Module, str]]:
    """Every module but the package's own `__init__` (it imports nothing of ours): its syntax
    tree and the package its relative imports start from."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        found[name] = (
            ast.parse(path.read_text()),
            name if path.stem == "__init__" else name.rpartition(".")[0],
        )
    return {name: found[name] for name in found if name != "watercolor"}


def is_command(module: str) -> bool:
    return module in ENTRY_POINTS or module.endswith(".__main__")


def absolute(node: ast.ImportFrom, package: str) -> str:
    """The module `from <node.module> import ...` names, a relative one resolved from `package`."""
    if node.level == 0:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(tree: ast.Module, package: str = "") -> set[str]:
    """Every module this one imports, anywhere but under `if TYPE_CHECKING:`; `package`: where
    its relative imports start (`from ..training import study` in watercolor.rewards.x names
    watercolor.training.study)."""
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
        if isinstance(node, ast.ImportFrom) and (module := absolute(node, package)):
            if module == "watercolor":  # `from watercolor import usage`
                found |= {f"watercolor.{a.name}" for a in node.names}
            else:
                found.add(module)
                found |= {f"{module}.{a.name}" for a in node.names}  # may name modules
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def layer(module: str) -> str:
    return module.split(".")[1]


def graph() -> dict[str, set[str]]:
    found = modules()
    return {
        name: {m for m in imports(tree, package) if m in found} - {name}
        for name, (tree, package) in found.items()
    }


def upward(edges: dict[str, set[str]]) -> list[str]:
    """`module -> target` for each import of a layer above the module's, commands aside."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    return sorted(
        f"{module} -> {target}"
        for module, targets in edges.items()
        if not is_command(module)
        for target in targets
        if rank[layer(target)] > rank[layer(module)]
    )


def test_every_module_has_a_layer():
    unplaced = sorted({layer(m) for m in modules()} - set(LAYERS))
    assert not unplaced, f"place these in LAYERS (bottom first): {unplaced}"


def test_imports_run_down_the_layers():
    found = upward(graph())
    assert not found, "imports that go up a layer:\n" + "\n".join(found)


def test_a_relative_import_that_goes_up_is_seen():
    tree = ast.parse("from ..training import study\nfrom . import pixels\nfrom .judges import vlm")
    found = imports(tree, package="watercolor.rewards")
    assert {"watercolor.training.study", "watercolor.rewards.pixels"} <= found
    assert "watercolor.rewards.judges.vlm" in found
    edges = {"watercolor.rewards.x": {"watercolor.training.study", "watercolor.rewards.pixels"}}
    assert upward(edges) == ["watercolor.rewards.x -> watercolor.training.study"]
    assert upward({"watercolor.rewards.__main__": edges["watercolor.rewards.x"]}) == []


def test_only_command_lines_import_command_lines():
    callers = [
        f"{module} -> {target}"
        for module, targets in graph().items()
        if not is_command(module) and layer(module) != "bench"
        for target in targets
        if is_command(target)
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
        for module, (tree, package) in modules().items()
        if module.startswith("watercolor.analysis")
        for target in imports(tree, package)
        if target.split(".")[0] in HEAVY
        or target.startswith(("watercolor.tasks", "watercolor.policy", "watercolor.training"))
    }
    assert not found, "analysis reaching a model, a task or training:\n" + "\n".join(sorted(found))


def test_no_module_name_repeats_across_the_packages():
    # A name says what a module is, once: `compare.py` (the command) and the comparison it runs
    # are two names. Two kinds of repeat are meant, each a contract rather than a coincidence:
    # Python's own names (`__init__`, `__main__`), and a task's parts, which every task package
    # under tasks/ names alike (a task's `prompts`, `gate`, `harness`, `episode`, `audit`, ...),
    # as a new task copies them (docs/extending.md).
    python = {"__init__", "__main__"}
    tasks = PACKAGE / "tasks"
    seen: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.stem in python or (path.is_relative_to(tasks) and path.parent.parent == tasks):
            continue  # a task's own part (tasks/<task>/<part>.py)
        seen.setdefault(path.stem, []).append(str(path.relative_to(PACKAGE)))
    repeated = {stem: paths for stem, paths in seen.items() if len(paths) > 1}
    assert not repeated, f"module names used twice: {repeated}"
