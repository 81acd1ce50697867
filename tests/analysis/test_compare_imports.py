"""`watercolor.compare` reads runs back through MLflow and pandas: importing it (and the MLflow
code it shares with training, `watercolor.tracking`) must not pull in torch, transformers, peft
or TRL, which took 10-16 s of every `python -m watercolor.compare`."""

import subprocess
import sys

import pytest

HEAVY = ("torch", "transformers", "peft", "trl")


ANALYSIS = ("watercolor.compare", "watercolor.analysis.matrix",
            "watercolor.analysis.revision_stats", "watercolor.analysis.records",
            "watercolor.analysis.stats", "watercolor.analysis.provenance")  # fmt: skip


@pytest.mark.parametrize("module", ANALYSIS)
def test_importing_compare_does_not_load_the_training_stack(module):
    # compare imports watercolor.tracking and matrix; matrix the revision measures
    probe = f"import sys, {module}; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == [], f"{module} imported {result.stdout.strip()}"
