"""Send replies to an environment server and print each one's verdict as a JSON line.

    python scripts/container/ask.py http://127.0.0.1:8100 < replies.json   # a JSON list of str

One WebSocket session (`CanvasEnv`, as the README's snippet), a fresh episode (`reset(seed=7)`)
per reply: {"reward", "status", "violations"} per line, in order. Run from the checkout against
its server, and inside a container that shares the image's network namespace against the image
(scripts/container/run.sh, tests/env/test_container.py): the same lines, the same server.
"""

from __future__ import annotations

import json
import sys

from watercolor.env.client import CanvasEnv
from watercolor.env.models import CanvasAction


def main(url: str) -> None:
    replies = json.load(sys.stdin)
    with CanvasEnv(base_url=url, message_timeout_s=300).sync() as env:
        for reply in replies:
            env.reset(seed=7)
            result = env.step(CanvasAction(reply=reply))
            verdict = {
                "reward": result.reward,
                "status": result.observation.status,
                "violations": list(result.observation.violations),
            }
            print(json.dumps(verdict), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
