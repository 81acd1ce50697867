"""`render`, `score` and `bench` render with the settings training uses (conf/train.yaml), not
copies.

The fast tests check what the commands compose; the browser test checks the canvas a scored
sketch was painted on: conf/renderer's pixel density, unless a flag or `--set` says otherwise.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from dataclasses import replace

import pytest
from hydra.utils import instantiate
from test_cli_contracts import WATERCOLOUR  # a layered wash reply (tests/ is on sys.path)

from watercolor import config, score
from watercolor.bench import cli as bench_cli
from watercolor.bench import remote
from watercolor.config import compose_train
from watercolor.render import __main__ as render_command
from watercolor.render import options
from watercolor.tasks import build_task
from watercolor.tasks.painting.gate import ANCHOR_BRUSH_METHODS


def composed(*argv: str, extra: tuple[str, ...] = ()):
    return options.compose(render_command.parse_args(["sketch.js", *argv]), extra)


def test_render_settings_are_trainings():
    training = instantiate(compose_train().renderer)
    assert options.render_config(composed()) == replace(training, workers=1)
    assert training.pixel_density == 0.5  # conf/renderer/local.yaml, not RenderConfig's 1.0


def test_flags_and_overrides_change_the_composed_renderer():
    config = options.render_config(
        composed("--size", "256", "--pixel-density", "1", "--time-limit", "3",
                 "--chromium", "/opt/chromium", "--set", "renderer.max_frames=1")
    )  # fmt: skip
    assert (config.size, config.pixel_density, config.time_limit_s) == (256, 1.0, 3.0)
    assert (config.chromium, config.max_frames) == ("/opt/chromium", 1)


def test_the_gate_is_the_tasks_and_its_options_are_config():
    episode = build_task(composed().task).episode
    assert episode.keywords["rules"].allowed_brush_methods == ANCHOR_BRUSH_METHODS
    relaxed = composed("--set", "+task.episode.rules.allowed_brush_methods=null")
    assert build_task(relaxed.task).episode.keywords["rules"].allowed_brush_methods is None


def test_score_composes_the_named_reward_set_with_the_overrides():
    cfg = score.parse_args(
        ["s.js", "--reward", "gated", "--set", "reward.components.coverage.weight=0"]
    )
    rewards = instantiate(options.compose(cfg, [f"reward={cfg.reward}"]).reward)
    assert rewards.gate and rewards.weights["coverage"] == 0


def test_a_bad_override_is_a_usage_error(tmp_path, capsys):
    sketch = tmp_path / "s.js"
    sketch.write_text(WATERCOLOUR)
    assert render_command.main([str(sketch), "--set", "renderer.no_such_field=1"]) == 2
    assert score.main([str(sketch), "--set", "no_such_group=x"]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.browser
def test_a_scored_canvas_has_the_configured_density():
    # 600 px sketch coordinates at conf's density 0.5: a 300 x 300 raster; `--set` changes it.
    for argv, side in [((), 300), (("--set", "renderer.pixel_density=0.25"), 150)]:
        args = score.parse_args(["s.js", "--reward", "coarse", *argv])
        cfg = options.compose(args, [f"reward={args.reward}"])
        (canvas,) = asyncio.run(score.paint_all([WATERCOLOUR], cfg, 0, instantiate(cfg.reward)))
        assert canvas.ok and canvas.rgba.shape == (side, side, 4), canvas.errors


def test_the_override_examples_in_help_compose(capsys):
    # `render --help` showed an override without its leading `+`, which Hydra refuses.
    with pytest.raises(SystemExit):
        render_command.parse_args(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    examples = [w for w in shown.split() if re.fullmatch(r"\+?[\w.]+=\S+", w)]
    assert "+task.episode.rules.allowed_brush_methods=null" in examples
    for example in examples:
        composed("--set", example)  # raises if Hydra refuses it


def test_bench_remote_servers_render_at_trainings_density(tmp_path, monkeypatch):
    # conf/renderer/local.yaml read, not copied: a conf whose density differs moves the servers.
    conf = shutil.copytree(config.CONF_DIR, tmp_path / "conf")
    local = conf / "renderer" / "local.yaml"
    local.write_text(re.sub(r"(?m)^pixel_density: .*$", "pixel_density: 0.25", local.read_text()))
    monkeypatch.setattr(config, "CONF_DIR", conf)
    args = bench_cli.parse_args(["remote"])
    assert remote.server_density(args) == 0.25
    assert remote.server_density(bench_cli.parse_args(["remote", "--server-density", "1"])) == 1.0
    command = remote.serve_command(8000, args, 0.25)
    assert command[command.index("--pixel-density") + 1] == "0.25"
