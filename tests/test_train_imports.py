"""What a training process imports: OpenEnv's client (with the server and gradio its package
pulls in, ~8 CPU-s on this machine under load) only when the run paints through remote
environment servers (renderer=remote). Every training job, evaluation and test subprocess
imports `watercolor.train`, so its import is paid many times over."""

from __future__ import annotations

import subprocess
import sys

import pytest
from train_helpers import REPO

pytestmark = pytest.mark.slow  # a fresh interpreter importing the trainer: ~10 CPU-s


def test_training_imports_openenv_only_for_remote_renderers():
    check = ("import sys, watercolor.train; print(sorted("
             "{m.split('.')[0] for m in sys.modules} & {'openenv', 'gradio'}))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", check], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=True)  # fmt: skip
    assert done.stdout.strip() == "[]", done.stdout
