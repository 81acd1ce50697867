"""Each task's OpenEnv package manifest (`envs/<task>/openenv.yaml`), written from the composed
config, so the declared reward range, resources and prompt pin are the ones the server runs.

    python -m watercolor.env.manifest                    # envs/painting/: openenv.yaml, oracle.json
    python -m watercolor.env.manifest --set task=svg     # envs/svg/
    python -m watercolor.env.manifest --check            # exit 1 if a committed file is stale
    openenv validate envs/painting --level static        # OpenEnv's validator reads it
    python scripts/container/validate.py painting        # and, with podman, runs it (runtime)

It declares openenv 0.10's `validation:` block: the reward (range, oracle, floor), capabilities,
resources, network, task distribution and execution; where each value comes from: the comment
above `manifest` (and docs/environment.md's table).

Why a folder per task beside the code, not the repository root: the validator hashes the whole
package tree and refuses symbolic links, and the root holds node_modules' links; and
`openenv.yaml` is one package's well-known file, so two tasks need two folders.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import yaml
from hydra.utils import instantiate
from omegaconf import DictConfig

from watercolor import usage
from watercolor.config import compose_train
from watercolor.render.page import OPEN_TIMEOUT_S
from watercolor.render.pool import RENDERER_MEMORY_FACTOR, WALL_LIMIT_FACTOR
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks import build_task

ENVS = Path(__file__).resolve().parents[2] / "envs"
VERSION = "0.1.0"
ORACLE_TOLERANCE = 0.1  # openenv 0.10's policy ceiling; the oracles earn >= 0.92 of 1
FLOOR_MARGIN = 0.9  # a null reply earns at most 0.1 of 1 (measured: 0)
SERVER_MB = 1024  # the Python server beside its browsers: an allowance, not a measurement
DISK_MB = 512  # an episode writes nothing; Chromium keeps a temporary profile
HEADER = "# Written by `python -m watercolor.env.manifest{flag}` from conf/: edit the config.\n"
# The environment's image as `docker build -f envs/Dockerfile -t watercolor-env .` tags it; the
# package's Dockerfile only names the task and OpenEnv's port (the validator passes no build
# arguments and its context is the package folder, which holds no code).
ENV_IMAGE = "watercolor-env"
OPENENV_PORT = 8000  # where OpenEnv's providers reach a subject (openenv.validation.providers)
DOCKERFILE = """\
# The image OpenEnv's validator builds for this package (openenv.yaml's validation.execution):
# the environment's image, built first from the repository root, serving {task} on port {port}.
#   docker build -f envs/Dockerfile -t {image} .   (scripts/container/build.sh here)
# HOME: the validator runs the subject as an unnamed user (--user 65532) on a read-only root
# where only /tmp is writable; Chromium keeps its profile and caches under HOME.
FROM {image}
ENV WATERCOLOR_TASK={task} WATERCOLOR_PORT={port} HOME=/tmp
EXPOSE {port}
"""


def reward_range(rewards: RewardSet) -> tuple[float, float]:
    """The set's total's range: each component is in [0, 1], the total their weighted sum."""
    weights = rewards.weights.values()
    low, high = sum(w for w in weights if w < 0), sum(w for w in weights if w > 0)
    divisor = sum(abs(w) for w in weights) if rewards.normalise else 1.0
    return round(low / divisor, 6), round(high / divisor, 6)


def resources(cfg: DictConfig, rewards: RewardSet, turns: int) -> dict:
    """Cores, memory, disk and one episode's time, from the renderer and the watchdog."""
    renderer = instantiate(cfg.renderer)
    renders = 2 if rewards.second_paper else 1
    per_render_s = renderer.time_limit_s * WALL_LIMIT_FACTOR + OPEN_TIMEOUT_S
    return {
        "cpu": float(renderer.workers),
        "memory_mb": renderer.workers * renderer.js_heap_mb * RENDERER_MEMORY_FACTOR + SERVER_MB,
        "disk_mb": DISK_MB,
        "episode_timeout_s": float(turns * renders * per_render_s),
    }


def prompt_pin(prompts: list[str]) -> str:
    """`<count> prompts, sha256:<hex>` over the prompts joined by newlines, in order."""
    digest = hashlib.sha256("\n".join(prompts).encode()).hexdigest()
    return f"{len(prompts)} prompts, sha256:{digest}"


def oracle_plan(source: Path, fence: str) -> dict:
    """A runtime plan (OpenEnv's format) that sends the oracle: its first line names the prompt
    (`prompt: ...`), the reply is the file in a fenced block."""
    text = source.read_text()
    prompt = re.search(r"prompt: (.+?)(?: -->)?$", text.splitlines()[0])
    if prompt is None:
        raise ValueError(f"{source}: the first line must name the prompt (`prompt: ...`)")
    reset = {"episode_id": "oracle", "seed": 7, "options": {"prompt": prompt.group(1)}}
    reply = f"```{fence}\n{text}```\n"
    return {"plan_schema_version": "1", "reset": reset, "actions": [{"reply": reply}]}


# What it declares (openenv 0.10's `validation:` block; `openenv.validation.manifest`):
# - reward: the task's default reward set (the server's): its range from the weights, the oracle's
#   tolerance (`ORACLE_TOLERANCE`, the policy's ceiling; the oracle is measured, with the margin the
#   renderer's nondeterminism needs, in tests/env/test_manifest.py) and a floor margin a null reply
#   (no code) cannot pass (`FLOOR_MARGIN`).
# - capabilities: the reward channel as verifier; the oracle, `envs/<task>/oracle.json`, a runtime
#   plan in OpenEnv's own format (a reset with the oracle's prompt, one action with its reply) made
#   from `envs/<task>/oracle<suffix>`; the rubric tree (watercolor/env/rubric.py).
# - resources: cores and memory from the renderer (its warm pages, each a Chromium allowed
#   `RENDERER_MEMORY_FACTOR` x its JS heap, plus `SERVER_MB` for the Python server, an allowance,
#   not a measurement); the episode's time from the pool's watchdog (per render: the CPU limit's
#   wall-clock backstop plus the page's open time-out; two renders when the set matts a second
#   paper), times the task's turns.
# - network: `no-network`, the sandbox's promise (watercolor/render/pool.py: Chromium reaches no
#   network and no file).
# - task_distribution: a sha256 of the train prompts, in order (what `reset` draws from).
# - execution: how the validator's runtime level builds and reaches the package: its `Dockerfile`
#   (`envs/<task>/Dockerfile`, also written here: the environment's image, envs/Dockerfile, serving
#   this task on OpenEnv's port 8000), the package folder as context, the OpenEnv WebSocket
#   protocol, and the oracle's plan as the episode it plays.
def manifest(cfg: DictConfig) -> dict:
    """The openenv.yaml of the composed config's task and its (default) reward set."""
    task, rewards = build_task(cfg.task), instantiate(cfg.reward)
    low, high = reward_range(rewards)
    return {
        "spec_version": 1,
        "name": f"watercolor-{task.name}",
        "version": VERSION,
        "description": task.description,
        "validation": {
            "reward": {
                "range": [low, high],
                "oracle_tolerance": ORACLE_TOLERANCE,
                "floor_margin": FLOOR_MARGIN,
            },
            "resources": resources(cfg, rewards, task.turns),
            "network": {"mode": "no-network"},
            "execution": {
                "kind": "openenv_ws",
                "probe_path": "oracle.json",
                "dockerfile": "Dockerfile",
                "context": ".",
                "agent_boundary": "api",
            },
            "task_distribution": {"dataset_version": prompt_pin(list(task.train_prompts))},
            "capabilities": {
                "verifier": {"kind": "reward_channel"},
                "oracle": {"form": "script", "location": "oracle.json"},
                "rubric_tree": True,
            },
            "types": {"tags": ["code", "rendering", task.name]},
        },
    }


def files(overrides: list[str]) -> dict[Path, str]:
    """{path: text} of a task's package: openenv.yaml, oracle.json and the Dockerfile."""
    cfg = compose_train(overrides)
    folder = ENVS / cfg.task.name
    flag = "".join(f" --set {o}" for o in overrides)
    plan = oracle_plan(folder / f"oracle{cfg.task.suffix}", cfg.task.suffix.lstrip("."))
    text = yaml.safe_dump(manifest(cfg), sort_keys=False, width=100)
    return {
        folder / "openenv.yaml": HEADER.format(flag=flag) + text,
        folder / "oracle.json": json.dumps(plan, indent=2) + "\n",
        folder / "Dockerfile": HEADER.format(flag=flag)
        + DOCKERFILE.format(task=cfg.task.name, port=OPENENV_PORT, image=ENV_IMAGE),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m watercolor.env.manifest", description=__doc__)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    args = parser.parse_args(argv)
    try:
        wanted = files(args.overrides)
    except (ValueError, OSError) as error:
        usage.fail(error)
    stale = [
        path for path, text in wanted.items() if not path.is_file() or path.read_text() != text
    ]
    for path in stale:
        if args.check:
            print(f"stale: {path} (run python -m watercolor.env.manifest)", file=sys.stderr)
        else:
            path.write_text(wanted[path])
            print(f"wrote {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
