"""The environment's old names (painting-only types, the render fleet's `RemotePainter`) answer
for a release, as the same classes, with a DeprecationWarning naming the new one (clients import
them, configs name them)."""

import importlib

import pytest
from hydra.utils import instantiate

from watercolor.env import RENAMED
from watercolor.env.client import RemoteRenderer

WHERE = {  # each old name, in every module that defined it
    "PaintAction": ["watercolor.env.models", "watercolor.env.client"],
    "PaintObservation": ["watercolor.env.models", "watercolor.env.client"],
    "PaintState": ["watercolor.env.models", "watercolor.env.client"],
    "PaintEnvironment": ["watercolor.env.environment"],
    "PaintEnv": ["watercolor.env.client"],
    "RemotePainter": ["watercolor.env.client"],
}


@pytest.mark.parametrize(("old", "module"), [(o, m) for o, ms in WHERE.items() for m in ms])
def test_an_old_name_is_the_new_class_with_a_warning(old, module):
    found = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=f"use {RENAMED[old]}"):
        assert getattr(found, old) is getattr(found, RENAMED[old])


def test_every_old_name_is_listed_and_an_unknown_name_is_still_an_error():
    assert set(WHERE) == set(RENAMED)
    with pytest.raises(AttributeError):
        importlib.import_module("watercolor.env.models").PaintNothing  # noqa: B018


def test_a_config_naming_the_old_renderer_still_builds_it_with_a_warning():
    old = {"_target_": "watercolor.env.client.RemotePainter", "urls": "http://box-a:8100"}
    with pytest.warns(DeprecationWarning, match="use RemoteRenderer"):
        renderer = instantiate(old)  # a user's own conf/renderer/*.yaml from before the rename
    assert isinstance(renderer, RemoteRenderer)
    assert [server.url for server in renderer.servers] == ["http://box-a:8100"]
