"""The services a run starts or talks to each have their own default port, set in one place, so
any two of them can share a machine: the env server (and the render fleet that looks for it),
the VLM judge and TRL's vLLM server (issue 35: all four were 8000)."""

from __future__ import annotations

import dataclasses
from urllib.parse import urlsplit

import pytest
from hydra.utils import instantiate
from trl import GRPOConfig

from watercolor import env
from watercolor.config import compose_train
from watercolor.env.serve import parser

ENDPOINT_VARIABLES = ("WATERCOLOR_RENDER_URL", "WATERCOLOR_JUDGE_URL", "VLLM_SERVER_URL")


@pytest.fixture
def ports(monkeypatch) -> dict[str, int]:
    """Each service's default port, read where each is used: the server's `--port`, the port
    `renderer=remote` connects to, the judge sets' endpoint, and TRL's for sampler=vllm_server."""
    for variable in ENDPOINT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    fleet = instantiate(compose_train(["renderer=remote"]).renderer)
    judge = compose_train(["reward=hps_led"]).reward.group_components.judge_winrate.fn.judge
    sampler = compose_train(["sampler=vllm_server"]).trainer
    assert sampler.vllm_server_base_url is None  # so TRL connects at its own port
    trl_port = {f.name: f.default for f in dataclasses.fields(GRPOConfig)}["vllm_server_port"]
    return {
        "env server": parser().parse_args([]).port,
        "render fleet": urlsplit(fleet.servers[0].url).port,
        "VLM judge": urlsplit(judge.base_url).port,
        "vLLM server": trl_port,
    }


def test_each_service_has_its_own_default_port(ports):
    services = {name: port for name, port in ports.items() if name != "render fleet"}
    assert len(set(services.values())) == len(services), ports
    assert ports["env server"] == env.PORT  # the one place the server's port is set


def test_the_render_fleet_looks_where_the_env_server_listens(ports):
    # The fleet is made of env servers: its default is the server's port, not one of its own.
    assert ports["render fleet"] == ports["env server"]


def test_an_endpoint_variable_still_moves_a_service(monkeypatch):
    monkeypatch.setenv("WATERCOLOR_RENDER_URL", "http://box-a:9000")
    monkeypatch.setenv("VLLM_SERVER_URL", "http://gpu-box:9001")
    fleet = instantiate(compose_train(["renderer=remote"]).renderer)
    assert [server.url for server in fleet.servers] == ["http://box-a:9000"]
    sampler = compose_train(["sampler=vllm_server"]).trainer
    assert sampler.vllm_server_base_url == "http://gpu-box:9001"
