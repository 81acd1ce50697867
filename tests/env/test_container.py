"""The environment's image (envs/Dockerfile) built with podman, started with no network, and
asked the same replies as the server started from the checkout: the same verdicts.

The image is built by scripts/container/build.sh (a Debian base made with mmdebstrap where no
registry serves one; minutes the first time, seconds when its layers are cached), started by
scripts/container/start.sh (`--network none`, read-only, no capabilities), and reached by a
second container sharing only its network namespace (its loopback), which runs
scripts/container/ask.py as the checkout's client runs it against the checkout's server.
Skipped where podman is absent, but required in CI (tests/env/containers.py).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
from containers import SCRIPTS, build_image, marks, script, shell
from env_servers import REPO, running_server

pytestmark = marks(timeout=1800)
SKETCH = """function setup() {
  createCanvas(600, 600, WEBGL);
  background(250, 243, 227);
  brush.noStroke();
  brush.fill("#3a6ea5", 90);
  brush.fillBleed(0.3);
  brush.circle(-60, 40, 150);
}"""


def fence(code: str) -> str:
    return f"```javascript\n{code}\n```"


BARE_PRIMITIVE = """```javascript
function setup() {
  createCanvas(600, 600, WEBGL);
  rect(-100, -100, 200, 200);
}
```"""
# A painting, then the bad inputs: the gate's refusals (a bare primitive, external access), no
# code at all, an empty reply, a reply past the length limit, and a sketch that throws.
REPLIES = [
    fence(SKETCH),
    BARE_PRIMITIVE,
    fence("function setup() { createCanvas(600, 600, WEBGL); fetch('http://example.com'); }"),
    "I would rather not paint today.",
    "",
    fence("// padding\n" * 7000 + SKETCH),
    fence("function setup() { createCanvas(600, 600, WEBGL); brush.circle(0, 0, notDefined); }"),
]
SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600">
  <rect width="600" height="600" fill="#faf3e3"/>
  <circle cx="300" cy="320" r="150" fill="#3a6ea5" opacity="0.7"/>
  <path d="M120 480 Q300 380 480 480" stroke="#c0392b" stroke-width="12" fill="none"/>
</svg>"""
SVG_REPLIES = [
    f"```svg\n{SVG}\n```",
    "```svg\n<svg xmlns='http://www.w3.org/2000/svg'><image href='http://example.com/a.png'/></svg>\n```",
    "no drawing",
    "",
]


def verdicts(lines: str) -> list[dict]:
    return [json.loads(line) for line in lines.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def image() -> str:
    return build_image()


@contextlib.contextmanager
def running_container(image: str, task: str) -> Iterator[str]:
    """The image serving `task` with no network, healthy, its name; removed at the end."""
    name = f"watercolor-test-{task}-{uuid.uuid4().hex[:8]}"
    start = 'start_subject "$1" "$2" "$3" && wait_healthy "$1" 240'
    started = shell(start, name, image, task, timeout=300)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield name
    finally:
        subprocess.run(["podman", "rm", "-f", "--time", "10", name], capture_output=True)


@pytest.fixture(scope="module")
def container(image):
    """The painting server's container, for the tests that only need one."""
    with running_container(image, "painting") as name:
        yield name


def ask_container(name: str, image: str, replies: list[str]) -> list[dict]:
    """ask.py run in a second container that shares only `name`'s network namespace."""
    asked = subprocess.run(
        [
            "podman",
            "run",
            "--rm",
            "-i",
            "--network",
            f"container:{name}",
            "--read-only",
            "--cap-drop",
            "ALL",
            "--volume",
            f"{SCRIPTS}:/probe:ro",
            image,
            "python",
            "/probe/ask.py",
            "http://127.0.0.1:8100",
        ],
        input=json.dumps(replies),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert asked.returncode == 0, asked.stderr[-3000:]
    return verdicts(asked.stdout)


def ask_checkout(url: str, replies: list[str]) -> list[dict]:
    """ask.py run from the checkout against the checkout's server."""
    asked = subprocess.run(
        [sys.executable, str(SCRIPTS / "ask.py"), url],
        input=json.dumps(replies),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert asked.returncode == 0, asked.stderr[-3000:]
    return verdicts(asked.stdout)


@pytest.mark.parametrize(
    ("task", "replies"), [("painting", REPLIES), ("svg", SVG_REPLIES)], ids=["painting", "svg"]
)
def test_the_image_gives_the_checkouts_verdicts_on_the_same_replies(image, task, replies):
    with running_container(image, task) as name:
        inside = ask_container(name, image, replies)
    with running_server("--set", f"task={task}") as url:
        outside = ask_checkout(url, replies)
    print("container:", inside, "checkout:", outside, sep="\n")
    assert len(inside) == len(outside) == len(replies)
    for reply, got, want in zip(replies, inside, outside, strict=True):
        verdict, expected = (got["status"], got["violations"]), (want["status"], want["violations"])
        assert verdict == expected, reply[:80]
        # SwiftShader moves a watercolour's score by ~0.01 between renders (docs/environment.md)
        assert got["reward"] == pytest.approx(want["reward"], abs=0.02), reply[:80]
    assert inside[0]["status"] == "ok" and inside[0]["reward"] > 0


def test_the_container_has_no_route_out(container, image):
    """Inside the server's network namespace: loopback only, no connection leaves."""
    probe = (
        "import socket\n"
        "try:\n    socket.create_connection(('1.1.1.1', 80), timeout=3); print('reached')\n"
        "except OSError as error:\n    print('refused', error)\n"
    )
    result = subprocess.run(
        ["podman", "exec", "-i", container, "python", "-"],
        input=probe,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.startswith("refused"), result.stdout + result.stderr
    listing = "import socket; print(socket.if_nameindex())"
    interfaces = subprocess.run(
        ["podman", "exec", container, "python", "-c", listing],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "'lo'" in interfaces.stdout and "eth" not in interfaces.stdout, interfaces.stdout


def test_the_readme_snippet_runs_against_the_image():
    """scripts/container/run.sh: starts its own container, runs the README's snippet in its
    network namespace, removes it."""
    ran = script("run.sh", timeout=600)
    reward, status, violations = ran.strip().splitlines()[-1].split(" ", 2)
    assert status == "ok" and violations == "[]" and 0 < float(reward) <= 1, ran
