"""The framework reaches a task only through `watercolor.tasks.Task` (issue 33, item 2).

Every module of the package outside `watercolor/tasks/` is read (its syntax tree, so imports
inside functions count too) for imports of a task's package (`watercolor.tasks.<name>`).
`watercolor.tasks` itself (the `Task` and `build_task`) is the framework's side of the seam.

`STILL_COUPLED` lists the modules that still import painting directly, each with what it takes
that a `Task` does not hold; only benchmarks of painting's own costs are there (the others reach
painting's harness and episode through `watercolor.bench.common.painting()`, a `Task`). The test
fails both when a module not listed starts importing a task and when a listed one stops (remove
it here then), so the list only shrinks; and the framework's core (`CORE`) may never join it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "watercolor"

STILL_COUPLED = {
    # A real recipe's costs on a GPU, measured on a tiny model of the recipe's class: the model
    # builder is painting's painter (`painter.tiny_qwen35`), a policy, which no Task holds.
    "bench/gpu_cost.py": "builds painting's tiny_qwen35 model",
    # The render benchmarks' workload is painting's sample sketches (p5's render cost is what
    # they time): a folder of the package (`SAMPLES_DIR`), which no Task holds.
    "bench/cli.py": "defaults --sketches to painting's SAMPLES_DIR",
    # ... and the sketches of model replies (`--replies`), read out with painting's extractor:
    # a Task's episode extracts, gates and renders in one call, and this times the render alone.
    "bench/webgl.py": "painting's SAMPLES_DIR, and extract_sketch on --replies",
}
# The framework's core: these reach a task only through `watercolor.tasks.Task`, never listed.
CORE = ["train.py", "evaluate.py", "compare.py", "score.py", "audit.py", "tracking.py",
        "analysis/", "env/", "evaluation/", "policy/", "render/", "rewards/",
        "training/"]  # fmt: skip


def task_imports(path: Path) -> set[str]:
    """The task packages (`watercolor.tasks.<name>...`) a module imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if node.module == "watercolor.tasks":  # `from watercolor.tasks import painting`
                names = [f"watercolor.tasks.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {n for n in names if n.startswith("watercolor.tasks.") and _is_package(n)}
    return found


def _is_package(name: str) -> bool:
    """`watercolor.tasks.<x>...` where <x> is a task's package (not a name of tasks/__init__)."""
    head = name.split(".")[2]
    return (PACKAGE / "tasks" / head).is_dir()


def coupled_modules() -> dict[str, set[str]]:
    """Each framework module (outside tasks/) that imports a task package, with those imports."""
    framework = [p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] != "tasks"]
    found = {str(p.relative_to(PACKAGE)): task_imports(p) for p in sorted(framework)}
    return {name: imports for name, imports in found.items() if imports}


def test_only_the_listed_modules_import_a_task_package():
    coupled = coupled_modules()
    new = sorted(set(coupled) - set(STILL_COUPLED))
    assert not new, f"these reach a task's package, not watercolor.tasks.Task: {new}"
    freed = sorted(set(STILL_COUPLED) - set(coupled))
    assert not freed, f"no longer import a task package: take them off STILL_COUPLED: {freed}"


def test_the_core_reaches_a_task_only_through_the_seam():
    missing = [path for path in CORE if not (PACKAGE / path).exists()]
    assert not missing, f"CORE names paths that are not in watercolor/: {missing}"
    coupled = set(coupled_modules()) | set(STILL_COUPLED)
    core = sorted(module for module in coupled if module.startswith(tuple(CORE)))
    assert not core, f"the framework's core imports a task package: {core}"


def test_the_reader_sees_imports_inside_functions_and_from_the_tasks_package(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from watercolor.tasks import Task, build_task\n"  # the seam: not a task package
        "def f():\n"
        "    from watercolor.tasks import painting\n"
        "    import watercolor.tasks.painting.gate\n"
    )
    assert task_imports(module) == {"watercolor.tasks.painting", "watercolor.tasks.painting.gate"}
