"""Fail fast, and say why, when a Ray sweep's cluster is not there.

    hydra:
      callbacks:
        ray_cluster: {_target_: watercolor.ray_check.RayClusterReachable}

With `hydra/launcher=ray_cluster`, Hydra's Ray launcher calls `ray.init(address=...)`; when no
cluster answers at that address, ray 2.60 retries without end, logging only "Failed to connect
to GCS". This callback tries a TCP connection to the head first and stops the sweep (exit
status 1) with a message that names the address and how to set it. It does nothing for other
launchers, for `address: auto` without $RAY_ADDRESS (Ray itself then says "Could not find any
running Ray instance") and for `address: null` (the launcher starts a Ray of its own).
"""

from __future__ import annotations

import os
import socket

from hydra.experimental.callback import Callback
from omegaconf import DictConfig


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


class RayClusterReachable(Callback):
    """Hydra callback: check the Ray head answers before a sweep's jobs are submitted."""

    def on_multirun_start(self, config: DictConfig, **kwargs: object) -> None:
        if address := cluster_address(config.hydra.launcher):
            try:
                check_reachable(address)
            except ConnectionError as error:
                # Hydra turns a callback's exceptions into warnings and carries on (into Ray's
                # retries); SystemExit is not an Exception, so the sweep stops here.
                raise SystemExit(f"Error: {error}") from None
