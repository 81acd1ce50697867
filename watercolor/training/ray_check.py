"""Fail fast, and say why, when a Ray sweep's cluster is not there.

    hydra:
      callbacks:
        ray_cluster: {_target_: watercolor.training.ray_check.RayClusterReachable}

With `hydra/launcher=ray_cluster`, Hydra's Ray launcher calls `ray.init(address=...)`; when no
cluster answers at that address, ray 2.60 retries without end, logging only "Failed to connect
to GCS". This callback tries a TCP connection to the head first and stops the sweep (exit
status 1) with a message that names the address and how to set it.

Then it joins the cluster for a moment and compares what each job asks for
(`hydra.launcher.ray.remote`: `num_cpus`, `num_gpus`, `memory`, `resources`) with what its
nodes have. A task that no node can hold stays pending in Ray without an error, so the sweep
would wait forever; instead it stops with a message naming both.

A cluster without authentication runs code for anyone who can reach its port, so when the
sweep joins one without a token (Ray 2.60's token authentication: `RAY_AUTH_MODE=token`, off
by default for `ray start`) it warns, and says how to turn it on.

It does nothing for other launchers, for `address: auto` without $RAY_ADDRESS (Ray itself then
says "Could not find any running Ray instance") and for `address: null` (the launcher starts a
Ray of its own, sized to this machine).
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf


def cluster_address(launcher: DictConfig) -> str | None:
    """The `host:port` the Ray launcher will join, or None when Ray finds (or starts) one itself."""
    if not str(launcher.get("_target_", "")).endswith("RayLauncher"):
        return None
    address = launcher.ray.init.get("address")
    if address == "auto":
        address = os.environ.get("RAY_ADDRESS")
    if not address or address in ("auto", "local"):
        return None
    return address.removeprefix("ray://")


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Raise ConnectionError with a clear message unless something listens at `host:port`."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            return
    except (OSError, ValueError) as error:
        raise ConnectionError(
            f"No Ray cluster answers at {address!r} ({error}). Start one "
            "(`ray start --head --port=6379`) or point the sweep at its head: "
            "hydra.launcher.ray.init.address=<head>:6379 (or set RAY_ADDRESS)."
        ) from None


def job_asks(launcher: DictConfig) -> dict[str, float]:
    """What each job's Ray task asks for, in Ray's resource names (`CPU`, `GPU`, `memory`, and
    custom ones); Ray's defaults for a task where the launcher sets nothing (1 CPU, no GPU)."""
    remote = OmegaConf.to_container(launcher.ray.get("remote") or {}, resolve=True)
    asks = {"CPU": remote.get("num_cpus", 1), "GPU": remote.get("num_gpus", 0),
            "memory": remote.get("memory")} | dict(remote.get("resources") or {})  # fmt: skip
    return {name: float(amount) for name, amount in asks.items() if amount}


def shortfall(asks: Mapping[str, float], nodes: Sequence[Mapping[str, float]]) -> str | None:
    """None when one node has everything a job asks for (a task runs on one node); else what
    is asked and what the nodes have."""
    if any(all(node.get(name, 0) >= amount for name, amount in asks.items()) for node in nodes):
        return None

    def shown(resources: Mapping[str, float]) -> str:
        return ", ".join(f"{name}={resources.get(name, 0):g}" for name in asks)

    have = "; ".join(shown(node) for node in nodes) or "no live node"
    return f"each job asks Ray for {shown(asks)}, but no node has that (nodes: {have})"


def joins_with_token() -> bool:
    """Whether Ray here joins a cluster with a token: `RAY_AUTH_MODE=token`, or the mode unset
    and a token in `RAY_AUTH_TOKEN`, `RAY_AUTH_TOKEN_PATH` or `~/.ray/auth_token` (Ray then
    turns token authentication on by itself; docs.ray.io, ray-security/token-auth)."""
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None:
        return mode.strip().lower() == "token"
    token_file = Path.home() / ".ray" / "auth_token"
    return bool(os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
                or token_file.is_file())  # fmt: skip


NO_TOKEN_WARNING = (
    "Warning: this sweep joined the Ray cluster at {address!r} without a token, so the cluster "
    "has no authentication: anyone who can reach its port can run code on it. Start every node "
    "with RAY_AUTH_MODE=token and one token (`ray get-auth-token --generate`; "
    "RAY_AUTH_TOKEN_PATH=<file> on other machines), and on a single machine bind the head to "
    "loopback (`ray start --head --node-ip-address=127.0.0.1`)."
)


def cluster_nodes(address: str) -> list[dict[str, float]]:
    """The resources of each live node of the cluster at `address` (joined, then left)."""
    import ray  # only with the ray extra, and only for a Ray sweep

    ray.init(address=address, logging_level="ERROR", log_to_driver=False)
    try:
        return [dict(node["Resources"]) for node in ray.nodes() if node["Alive"]]
    finally:
        ray.shutdown()  # the launcher joins again with its own settings


class RayClusterReachable(Callback):
    """Hydra callback: before a sweep's jobs are submitted, check the Ray head answers and
    that one of its nodes can hold a job."""

    def on_multirun_start(self, config: DictConfig, **kwargs: object) -> None:
        launcher = config.hydra.launcher
        if not (address := cluster_address(launcher)):
            return
        # Hydra turns a callback's exceptions into warnings and carries on (into Ray's retries,
        # or jobs pending for ever); SystemExit is not an Exception, so the sweep stops here.
        try:
            check_reachable(address)
        except ConnectionError as error:
            raise SystemExit(f"Error: {error}") from None
        nodes = cluster_nodes(launcher.ray.init.address)  # as the launcher will join it
        if not joins_with_token():  # and the join succeeded: the cluster asks for none
            print(NO_TOKEN_WARNING.format(address=address), file=sys.stderr, flush=True)
        if problem := shortfall(job_asks(launcher), nodes):
            raise SystemExit(
                f"Error: the Ray cluster at {address!r} cannot run this sweep: {problem}. "
                "Its jobs would wait for ever. Set hydra.launcher.ray.remote.num_cpus / "
                "num_gpus (and memory, resources) to what one job needs (the tiny default: "
                "num_gpus=0 num_cpus=1), or add a node that has it."
            )
