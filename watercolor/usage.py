"""Bad input at the command line: one line on stderr and exit code 2, never a traceback.

    >>> from watercolor import usage
    >>> if not Path(args.records).is_dir():
    ...     usage.fail(f"no records folder {args.records}")       # error: no records folder ...
    >>> usage.check_overrides("evaluate", sys.argv[1:])           # a Hydra app, before main()

DESIGN.md §5 gives exit code 2 to usage errors. Every `python -m watercolor.<command>` answers
a path that is not there, a name it does not know or an override that does not compose so,
before it starts any work (a browser, a model): `error: <what>` on one line (Hydra's messages
run over several, so they are joined). argparse's own errors (an unknown flag, a value of the
wrong type) keep argparse's usage message, with the same exit code.
tests/cli/test_cli_usage.py runs each command with bad input.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

USAGE = 2  # the exit code of a usage error (argparse's too)


def message(error: BaseException | str) -> str:
    """`error` as one line."""
    return " ".join(str(error).split())


def fail(error: BaseException | str) -> NoReturn:
    """Print `error: <error>` on one line to stderr and exit with `USAGE`."""
    print(f"error: {message(error)}", file=sys.stderr, flush=True)
    raise SystemExit(USAGE)


def check_overrides(config_name: str, argv: Sequence[str]) -> None:
    """Exit with one line when the overrides of a Hydra app's command line (`argv`) do not
    compose conf/<config_name>.yaml (Hydra itself would print several lines and exit 1).

    Hydra's flags (`--multirun`, `--cfg`, ...) and sweeps (`reward=a,b`) are Hydra's to read:
    with either, the command line goes to Hydra unchecked.
    """
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from watercolor.config import compose_config

    if any(arg.startswith("-") for arg in argv):
        return
    try:
        if any(o.is_sweep_override() for o in OverridesParser.create().parse_overrides(argv)):
            return
        compose_config(config_name, argv)
    except (HydraException, OmegaConfBaseException) as error:
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
