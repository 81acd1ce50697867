"""The painting task: "paint a peach hibiscus in watercolour" as one p5.brush sketch.

    >>> from watercolor.tasks.painting import SYSTEM_PROMPT, check_reply, training_prompts
    >>> sketch, violations = check_reply("I would paint a hibiscus.")
    >>> [v.code for v in violations]
    ['no_sketch']

Modules: `prompts` (system prompt, prompt set, splits, named colours), `gate` (sketch
extraction, static rules, blank-canvas check), `jsscan` (comment and literal blanking the gate
matches on), `episode` (gate -> render -> blank check, one Canvas per reply). Sample sketches
live in `samples/`.
"""

from pathlib import Path

from watercolor.tasks.painting.gate import (
    GateRules,
    Violation,
    check_canvas,
    check_reply,
    check_sketch,
    extract_sketch,
)
from watercolor.tasks.painting.prompts import (
    SYSTEM_PROMPT,
    conversation,
    prompt_colours,
    sample_prompt,
)
from watercolor.tasks.painting.prompts import prompts as training_prompts

# `prompts` stays the module's name (Hydra targets watercolor.tasks.painting.prompts.<fn>);
# the function is re-exported as `training_prompts`.

SAMPLES_DIR = Path(__file__).parent / "samples"


def sample_sketches() -> dict[str, str]:
    """The hand-written sample watercolours, by file stem ("hibiscus" -> JavaScript source)."""
    return {path.stem: path.read_text() for path in sorted(SAMPLES_DIR.glob("*.js"))}


__all__ = [
    "SAMPLES_DIR",
    "SYSTEM_PROMPT",
    "GateRules",
    "Violation",
    "check_canvas",
    "check_reply",
    "check_sketch",
    "conversation",
    "extract_sketch",
    "prompt_colours",
    "training_prompts",
    "sample_prompt",
    "sample_sketches",
]
