"""What a Ray sweep's jobs ask for against what the cluster's nodes have
(watercolor/training/ray_check.py).

The check against a real cluster (a one-node head on loopback) is in test_ray_sweep.py (slow).
"""

from __future__ import annotations

from hydra import compose, initialize_config_dir

from watercolor.config import CONF_DIR
from watercolor.training.ray_check import job_asks, shortfall


def ray_launcher(*overrides: str):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("train", ["hydra/launcher=ray_cluster", *overrides], return_hydra_config=True)
    return cfg.hydra.launcher


def test_a_job_asks_for_what_the_launcher_config_says():
    assert job_asks(ray_launcher()) == {"CPU": 8.0, "GPU": 1.0}
    asks = job_asks(ray_launcher("hydra.launcher.ray.remote.num_gpus=0",
                                 "hydra.launcher.ray.remote.num_cpus=1"))  # fmt: skip
    assert asks == {"CPU": 1.0}


def test_a_job_fits_only_when_one_node_has_all_it_asks_for():
    asks = {"CPU": 8.0, "GPU": 1.0}
    assert shortfall(asks, [{"CPU": 16.0, "GPU": 2.0, "memory": 1e9}]) is None
    # 8 CPUs and a GPU in the cluster, but not on one node: a task runs on one node.
    split = shortfall(asks, [{"CPU": 8.0}, {"CPU": 2.0, "GPU": 1.0}])
    assert split == ("each job asks Ray for CPU=8, GPU=1, but no node has that "
                     "(nodes: CPU=8, GPU=0; CPU=2, GPU=1)")  # fmt: skip
    assert "no live node" in shortfall(asks, [])
