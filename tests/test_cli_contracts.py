"""The command-line contracts of DESIGN.md §5, run as a user runs them (real Chromium)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from watercolor.tasks.painting import SAMPLES_DIR

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[1]

WATERCOLOUR = """Here is my painting:
```js
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#e07a8f", 150);
  brush.fillBleed(0.3);
  brush.fillTexture(0.4, 0.3);
  brush.circle(-40, -20, 140);
  brush.fill("#5b8fd1", 120);
  brush.circle(60, 40, 120);
}
```"""
THROWS = WATERCOLOUR.replace("brush.circle(60, 40, 120);", "brush.circle(60, 40, 120); nope();")
HANGS = WATERCOLOUR.replace("brush.circle(60, 40, 120);", "while (true) {}")


def run(module: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def one_json_object(stdout: str) -> dict:
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert len(lines) == 1, stdout
    return json.loads(lines[0])


def test_render_ok_writes_png_and_exits_0(tmp_path):
    out = tmp_path / "canvas.png"
    result = run("watercolor.render", write(tmp_path, "reply.md", WATERCOLOUR), "-o", str(out),
                 "--size", "600", "--pixel-density", "0.5", "--json")  # fmt: skip
    record = one_json_object(result.stdout)
    assert result.returncode == 0, result.stderr
    assert record["status"] == "ok" and record["png"] == str(out) and out.stat().st_size > 1000
    assert record["errors"] == [] and record["violations"] == []
    assert {"total_ms", "draw_ms"} <= set(record["timings"])


@pytest.mark.parametrize(
    ("text", "status", "violation"),
    [
        ("I would paint a hibiscus.", "violation", "no_sketch"),
        ("function setup() { createCanvas(600, 600); rect(0, 0, 10, 10); }", "violation",
         "not_webgl"),
        (THROWS, "error", None),
    ],
    ids=["prose", "2d-and-bare", "throws"],
)  # fmt: skip
def test_render_failures_exit_1_with_a_message(tmp_path, text, status, violation):
    # A reply the gate refuses is answered without starting a browser: no Chromium needed.
    browser = ["--chromium", "/nonexistent/chromium"] if status == "violation" else []
    result = run("watercolor.render", write(tmp_path, "s.js", text), "--json",
                 "--pixel-density", "0.5", *browser)  # fmt: skip
    record = one_json_object(result.stdout)
    assert result.returncode == 1
    assert record["status"] == status and record["errors"] and record["png"] is None
    assert violation is None or violation in record["violations"]


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_render_hang_ends_within_the_limit(tmp_path):
    start = time.monotonic()
    result = run("watercolor.render", write(tmp_path, "s.js", HANGS), "--json",
                 "--time-limit", "3")  # fmt: skip
    assert one_json_object(result.stdout)["status"] == "timeout" and result.returncode == 1
    assert time.monotonic() - start < 3 + 60  # the limit plus browser start-up on a busy box


def test_render_usage_and_infrastructure_errors_exit_2(tmp_path):
    assert run("watercolor.render", str(tmp_path / "missing.js")).returncode == 2
    assert run("watercolor.render").returncode == 2  # no SKETCH: argparse usage error
    result = run("watercolor.render", write(tmp_path, "s.js", WATERCOLOUR), "--json",
                 "--chromium", "/nonexistent/chromium")  # fmt: skip
    record = one_json_object(result.stdout)
    assert result.returncode == 2 and record["status"] == "infra_error" and record["errors"]


def test_score_one_file(tmp_path):
    result = run("watercolor.score", write(tmp_path, "reply.md", WATERCOLOUR), "--reward",
                 "gated", "--json", "--pixel-density", "0.5")  # fmt: skip
    record = one_json_object(result.stdout)
    assert result.returncode == 0, result.stderr
    assert 0 < record["reward"] <= 1 and record["status"] == "ok" and record["violations"] == []
    assert {"clean_run", "coverage", "granulation"} <= set(record["components"])


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_score_and_render_paint_the_second_paper_their_set_names(tmp_path):
    """`show_through` reads opacity from two papers: both commands paint the second (issue 52)."""
    reply = write(tmp_path, "reply.md", WATERCOLOUR)
    scored = one_json_object(
        run("watercolor.score", reply, "--reward", "show_through", "--json").stdout
    )
    assert scored["twin_paper"] == "#1e3a5f" and scored["twin_status"] == "ok", scored
    assert scored["reward"] > 0 and scored["components"]["paint_opacity"] < 1.0
    rendered = one_json_object(
        run("watercolor.render", reply, "--json", "--set", "reward=show_through").stdout
    )
    assert rendered["twin_paper"] == "#1e3a5f" and rendered["twin_status"] == "ok"
    assert "twin_paper" not in one_json_object(run("watercolor.render", reply, "--json").stdout)


def test_score_gated_gives_zero_to_a_sketch_that_throws(tmp_path):
    result = run("watercolor.score", write(tmp_path, "s.js", THROWS), "--reward", "gated",
                 "--json", "--pixel-density", "0.5")  # fmt: skip
    record = one_json_object(result.stdout)
    assert result.returncode == 1 and record["reward"] == 0 and record["status"] == "error"


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_score_directory_prints_a_table(tmp_path):
    for name in ("koi", "pears"):
        (tmp_path / f"{name}.js").write_text((SAMPLES_DIR / f"{name}.js").read_text())
    (tmp_path / "bad.md").write_text("no code here")
    result = run("watercolor.score", str(tmp_path), "--reward", "fine_grained",
                 "--pixel-density", "0.5", "--time-limit", "60")  # fmt: skip
    assert result.returncode == 1  # one of the three failed
    lines = result.stdout.splitlines()
    assert "reward" in lines[0] and len(lines) == 4
    assert any("koi.js" in line and " ok " in f" {line} " for line in lines)


def test_score_unknown_set_is_a_usage_error(tmp_path):
    result = run("watercolor.score", write(tmp_path, "s.js", WATERCOLOUR), "--reward", "nope")
    assert result.returncode == 2 and "unknown reward set" in result.stderr


def test_score_a_refused_reply_without_a_browser(tmp_path):
    # The gate's verdict needs no canvas, so no browser starts (a missing one is no error).
    result = run("watercolor.score", write(tmp_path, "s.md", "I would paint a hibiscus."),
                 "--reward", "gated", "--json", "--chromium", "/nonexistent/chromium")  # fmt: skip
    record = one_json_object(result.stdout)
    assert result.returncode == 1 and record["status"] == "violation" and record["reward"] == 0
    assert record["violations"] == ["no_sketch"]


def test_score_directory_scores_a_file_it_cannot_read_as_that_files_failure(tmp_path):
    # A UTF-16 reply once aborted the whole folder with no records (issue 44).
    (tmp_path / "utf16.md").write_text("I would paint a hibiscus.", encoding="utf-16")
    (tmp_path / "prose.md").write_text("I would paint a hibiscus.")
    result = run("watercolor.score", str(tmp_path), "--reward", "gated", "--json",
                 "--chromium", "/nonexistent/chromium")  # fmt: skip
    records = {Path(r["file"]).name: r for r in map(json.loads, result.stdout.splitlines())}
    assert result.returncode == 1 and set(records) == {"utf16.md", "prose.md"}, result.stderr
    assert records["prose.md"]["violations"] == ["no_sketch"]
    unreadable = records["utf16.md"]
    assert unreadable["status"] == "error" and unreadable["reward"] == 0
    assert "not UTF-8" in unreadable["errors"][0]
