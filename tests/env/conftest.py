"""Replies the environment tests send: a real p5.brush watercolour and a gate-breaking one."""

import pytest

# Two translucent, bleeding washes on cream paper, using only the allowed brush methods.
INLINE_WATERCOLOUR = """\
function setup() {
  createCanvas(600, 600, WEBGL);
  brush.scaleBrushes(3);
  background(250, 243, 227);
  brush.noStroke();
  brush.fill("#3a6ea5", 90);
  brush.fillBleed(0.3);
  brush.fillTexture(0.5, 0.4);
  brush.circle(-60, 40, 150);
  brush.fill("#c0392b", 70);
  brush.beginShape();
  brush.vertex(-200, -150);
  brush.vertex(100, -220);
  brush.vertex(180, 60);
  brush.vertex(-120, 120);
  brush.endShape(CLOSE);
}
"""


@pytest.fixture(scope="session")
def watercolour_reply() -> str:
    """A model-style reply with one fenced block (lighter than the task's samples: faster)."""
    return f"Here is a layered watercolour.\n\n```javascript\n{INLINE_WATERCOLOUR}```\n"


@pytest.fixture(scope="session")
def bad_reply() -> str:
    """A bare p5 primitive (the anchor's gate bans them): refused before any render."""
    return BARE_PRIMITIVE_REPLY


BARE_PRIMITIVE_REPLY = """```javascript
function setup() {
  createCanvas(600, 600, WEBGL);
  background(250, 243, 227);
  rect(-100, -100, 200, 200);
}
```"""
