"""The framework reaches a task only through `watercolor.tasks.Task` (issue 33, item 2).

Every module of the package outside `watercolor/tasks/` is read (its syntax tree, so imports
inside functions count too) for imports of a task's package (`watercolor.tasks.<name>`).
`watercolor.tasks` itself (the `Task` and `build_task`) is the framework's side of the seam.

`STILL_COUPLED` lists the modules that still import painting directly, each with why; the
work of moving them (the recipe-architecture models, the benchmarks' sample sketches, the HPS
reference pool) is open in issue 33. The test fails both when a module not listed starts
importing a task and when a listed one stops (remove it here then), so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "watercolor"

STILL_COUPLED = {
    # a real recipe's costs, measured on painting's tiny model of that recipe's class
    "bench/gpu.py": "builds painting's tiny_qwen35 model",
    # benchmarks that render painting's sample sketches (p5's render cost is what they measure)
    "bench/cli.py": "defaults to painting's sample sketches",
    "bench/common.py": "extracts painting's sample sketches",
    "bench/matting.py": "paints painting's samples over a second paper (a set's second_paper)",
    "bench/render.py": "renders in painting's harness",
    "bench/webgl.py": "renders painting's sample sketches",
    # the HPS reference pool is rendered from painting's sketches (its data is painting's)
    "rewards/reference_pool/build.py": "renders painting's reference sketches",
}


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


def test_training_evaluation_and_the_env_server_reach_the_task_only_through_the_seam():
    coupled = coupled_modules()
    seam = ["train.py", "evaluate.py", "revise_eval.py", "revision.py", "tool_env.py",
            "compare.py", "matrix.py", "study.py", "tracking.py", "render/pool.py"]  # fmt: skip
    seam += ["env/environment.py", "env/serve.py", "env/client.py", "env/scoring.py"]
    for module in seam:
        assert module not in coupled, f"{module} imports {sorted(coupled[module])}"


def test_the_reader_sees_imports_inside_functions_and_from_the_tasks_package(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from watercolor.tasks import Task, build_task\n"  # the seam: not a task package
        "def f():\n"
        "    from watercolor.tasks import painting\n"
        "    import watercolor.tasks.painting.gate\n"
    )
    assert task_imports(module) == {"watercolor.tasks.painting", "watercolor.tasks.painting.gate"}
