"""Bad input at the command line: one line on stderr and exit code 2, never a traceback.

    >>> from watercolor import usage
    >>> if not Path(args.records).is_dir():
    ...     usage.fail(f"no records folder {args.records}")       # error: no records folder ...
    >>> usage.check_overrides("evaluate", sys.argv[1:])           # a Hydra app, before main()
    >>> usage.check_overrides("train", sys.argv[1:], check_settings)  # each run (or sweep job)

DESIGN.md §5 gives exit code 2 to usage errors. Every `python -m watercolor.<command>` answers
a path that is not there, a name it does not know or an override that does not compose so,
before it starts any work (a browser, a model): `error: <what>` on one line (Hydra's messages
run over several, so they are joined). argparse's own errors (an unknown flag, a value of the
wrong type) keep argparse's usage message, with the same exit code.
tests/test_usage.py runs each command with bad input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from omegaconf import DictConfig

USAGE = 2  # the exit code of a usage error (argparse's too)
MULTIRUN_FLAGS = ("--multirun", "-m")


def message(error: BaseException | str) -> str:
    """`error` as one line."""
    return " ".join(str(error).split())


def fail(error: BaseException | str) -> NoReturn:
    """Print `error: <error>` on one line to stderr and exit with `USAGE`."""
    print(f"error: {message(error)}", file=sys.stderr, flush=True)
    raise SystemExit(USAGE)


def check_overrides(
    config_name: str, argv: Sequence[str], check: Callable[[DictConfig], None] | None = None
) -> None:
    """Exit with one line when the command line (`argv`) of a Hydra app does not compose
    conf/<config_name>.yaml, or composes a run that `check` refuses (it raises ValueError; it
    gets the config with its `hydra` node). A sweep (`--multirun`, or an experiment that says
    `hydra.mode: MULTIRUN`) is checked job by job, each composed as Hydra's basic sweeper will
    compose it (`watercolor.config.runs`), before the first starts. Hydra itself would print
    several lines and exit 1, after its callbacks ran; a job it composes but `check` refuses
    would fail only when its turn came, after the jobs before it.

    Hydra's other flags (`--cfg`, `--info`, `--config-dir`, ...) leave the command line to Hydra.
    """
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from watercolor.config import check_runs

    overrides = [arg for arg in argv if arg not in MULTIRUN_FLAGS]
    if any(arg.startswith("-") for arg in overrides):
        return
    try:  # a sweep's error names its job
        check_runs(config_name, overrides, check, multirun=len(overrides) < len(argv))
    except (HydraException, OmegaConfBaseException, ValueError) as error:
        fail(error)


def check_model_source(source: str, what: str) -> None:
    """Exit with one line when `source` (the value of `what`, a model directory or hub id)
    names a local directory that is not there: not a directory, and not a hub id either (as
    `huggingface_hub` validates one), or a path under a local folder (`outputs/runs/x`)."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    path = Path(source).expanduser()
    if path.is_dir():
        return
    try:
        validate_repo_id(source)
    except HFValidationError:
        fail(f"{what}: no such directory, and not a hub id: {source}")
    if "/" in source and path.parent.is_dir():
        fail(f"{what}: no such directory: {source}")
