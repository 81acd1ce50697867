"""The README's client snippet ("Talk to the environment server"), run as written against a real
`python -m watercolor.env.serve` on its default port's stand-in (a free loopback port)."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from env_servers import REPO, running_server

pytestmark = pytest.mark.browser

MARKER = "<!-- env-client-snippet -->"


def readme_snippet() -> str:
    """The python block right after the README's marker."""
    readme = (REPO / "README.md").read_text()
    assert MARKER in readme, "the README lost its client snippet (or its marker)"
    # the block's own fences stand on lines of their own (the snippet holds a fence in a string)
    (block,) = re.findall(r"^```python\n(.*?)^```$", readme.split(MARKER, 1)[1], re.S | re.M)[:1]
    return block


def test_the_readme_client_snippet_is_whole_python():
    # A README edit once cut the block after its first fence-in-a-string (751c5e8), and only the
    # slow test below, which runs it, saw it: this one compiles it, in command 2.
    snippet = readme_snippet()
    compile(snippet, "README.md", "exec")
    assert snippet.rstrip().endswith("result.observation.violations)"), snippet


@pytest.mark.slow  # a server started and a render over HTTP, ~25 s (command 2's budget, issue 45)
def test_the_readme_client_snippet_paints_on_a_real_server():
    snippet = readme_snippet()
    assert "http://127.0.0.1:8100" in snippet  # the server's default port, as the README says
    printed = io.StringIO()
    with running_server() as url, contextlib.redirect_stdout(printed):
        exec(compile(snippet.replace("http://127.0.0.1:8100", url), "README.md", "exec"), {})
    prompt, result = printed.getvalue().strip().splitlines()
    assert prompt  # the episode's prompt
    reward, status, violations = result.split(" ", 2)
    assert status == "ok" and violations == "[]", result
    assert 0 < float(reward) <= 1
