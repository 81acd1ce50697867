"""OpenEnv's validator at its runtime level on a task's package, run on this machine's podman.

    source scripts/container/env.sh && bash scripts/container/build.sh   # the image, first
    .venv/bin/python scripts/container/validate.py painting --json outputs/container/painting.json

What `openenv validate envs/<task> --level runtime` runs, through the same public API the command
calls (`openenv.validation.run_validation`: its parser, graders, policy v2 and Docker-local
provider, which builds envs/<task>/Dockerfile, starts it with --network none, --read-only,
--cap-drop ALL, --user 65532 and the manifest's CPU and memory, plays oracle.json over the
WebSocket and measures the network from a helper in the subject's namespace), with one argument
the command does not take: the provider's helper image. openenv 0.10 pins it to
`python:3.12-slim@sha256:c3d8...` and pulls it; no image registry answers here, and a digest
cannot be given to another image, so the helper is the Debian base that prepare.sh builds
(python3 and sleep, all the helper's scripts need), pinned by its own digest
(`DockerValidationProvider(helper_image=...)`). Where a registry answers, run the command itself.

`docker` is podman (scripts/container/bin/docker, first on this process's PATH: podman-docker's
`/usr/bin/docker` but for one `ps --format` template function podman 4.3 lacks, which the
provider's clean-up uses; a Docker CLI with no daemon, `/usr/local/bin/docker` here, would
otherwise come first). Exit code as the command's: 0 pass or warn, 1 fail.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from openenv.validation import Level, Verdict, run_validation, write_report
from openenv.validation.providers.docker import DockerValidationProvider

REPO = Path(__file__).resolve().parents[2]
SHIM = REPO / "scripts" / "container" / "bin"  # `docker`: podman, for the validator


def podman_first() -> None:
    """This process's `docker` is podman (the shim), and podman reads scripts/container's conf."""
    if shutil.which("podman") is None:
        sys.exit("podman is not installed: bash scripts/container/prepare.sh installs it")
    os.environ["PATH"] = f"{SHIM}:{os.environ['PATH']}"
    os.environ.setdefault("CONTAINERS_CONF", str(REPO / "scripts/container/containers.conf"))


def local_helper(base: str) -> str:
    """`base` as `repository@sha256:<its manifest digest>`, the form the provider requires."""
    digest = subprocess.run(
        ["podman", "image", "inspect", "--format", "{{.Digest}}", base],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    return f"{base.rsplit(':', 1)[0]}@{digest}"


def render(report) -> str:
    """The report as `openenv validate` prints it: one line a check, the evidence of the rest."""
    lines = [f"Validation report for {report.target} (signature: {report.signature.value})"]
    lines.append("  levels run: " + ", ".join(level.name.lower() for level in report.levels_run))
    for result in report.results:
        status = result.status.value.upper()
        lines.append(f"  {status:5s} {result.check_id} ({result.duration_s:.2f}s)")
        if status != "PASS":
            lines += [f"          {line}" for line in result.evidence]
    lines.append(f"Verdict: {report.verdict.value.upper()}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("task", choices=["painting", "svg"])
    parser.add_argument(
        "--json", type=Path, help="write the report (JSON) here too, and its bundle"
    )
    parser.add_argument(
        "--helper",
        default=os.environ.get("WATERCOLOR_BASE_IMAGE", "localhost/watercolor-base:bookworm"),
        help="the local image the provider's network helper runs (default: %(default)s)",
    )
    args = parser.parse_args()
    podman_first()
    os.chdir(REPO)  # the report names the package as envs/<task>
    provider = DockerValidationProvider(helper_image=local_helper(args.helper))
    print(f"helper image: {provider.helper_image}", file=sys.stderr)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
    # --json also writes the reproduction bundle where `openenv validate --output` writes it
    bundle = args.json.parent / f"{args.json.stem}.artifacts" if args.json else None
    package = Path("envs") / args.task
    report = run_validation(
        package, max_level=Level.RUNTIME, provider=provider, artifacts_dir=bundle
    )
    if args.json:
        write_report(report, args.json)
    print(render(report))
    return 1 if report.verdict is Verdict.FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
