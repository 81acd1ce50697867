"""HPSv3 as a small HTTP scoring service, run in its own Python environment.

hpsv3 1.0.0 pins transformers 4.45.2 and the watercolor environment pins transformers 5, so the
two cannot share one environment. This file needs only the standard library, Pillow and, for the
real model, the hpsv3 package (it does not import watercolor). On the GPU machine:

    python -m venv .venv-hps
    .venv-hps/bin/pip install -r services/hpsv3/requirements.txt
    .venv-hps/bin/python services/hpsv3/serve.py --device cuda:1 --port 8765

then point the HPS reward sets at it: `WATERCOLOR_HPS_URL=http://gpu-box:8765` (see
conf/reward/hps_only.yaml and watercolor/rewards/hps.py). The weights (~16 GB) are fetched from
the hub by hpsv3 on first start unless `--checkpoint` names a local HPSv3.safetensors.

API (JSON):
  GET  /health                                  -> {"ok": true, "model": "..."}
  POST /score {"images": [<base64 PNG>, ...],    -> {"mu": [...], "sigma": [...]}
               "prompts": ["...", ...]}
A bad request is a 400 with {"error": ...}; a model failure (CUDA out of memory, ...) a 500.
Requests are scored one batch at a time (the model is not thread-safe).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import sys
import threading
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image

# (images, prompts) -> [(mu, sigma), ...]
ScoreFn = Callable[[Sequence[Image.Image], Sequence[str]], Sequence[tuple[float, float]]]
MAX_BODY = 64 * 1024 * 1024


def hpsv3_scorer(device: str, checkpoint: str | None) -> ScoreFn:
    """HPSv3's (mu, sigma) per image, from the hpsv3 package (loaded once, here)."""
    import hpsv3
    import torch

    model = hpsv3.HPSv3RewardInferencer(device=device, checkpoint_path=checkpoint)

    def score(images, prompts):
        with torch.no_grad():
            rewards = model.reward(list(images), list(prompts))
        return [(float(r[0]), float(r[1])) for r in rewards]

    return score


def decode_request(body: bytes) -> tuple[list[Image.Image], list[str]]:
    """(images, prompts) of a /score body; ValueError with a reason when it is malformed."""
    try:
        request = json.loads(body)
        images = [Image.open(io.BytesIO(base64.b64decode(b, validate=True))).convert("RGB")
                  for b in request["images"]]  # fmt: skip
        prompts = [str(p) for p in request["prompts"]]
    except (ValueError, KeyError, TypeError, OSError) as exc:
        raise ValueError(f"expected {{'images': [base64 PNG], 'prompts': [str]}}: {exc}") from exc
    if len(images) != len(prompts) or not images:
        raise ValueError(f"{len(images)} images for {len(prompts)} prompts")
    return images, prompts


def make_server(host: str, port: int, score: ScoreFn, model_name: str) -> ThreadingHTTPServer:
    """The HTTP server (not yet serving) answering /health and /score with `score`."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, payload: dict) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            if self.path == "/health":
                self._send(200, {"ok": True, "model": model_name})
            else:
                self._send(404, {"error": f"no route {self.path}"})

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/score":
                return self._send(404, {"error": f"no route {self.path}"})
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                return self._send(400, {"error": f"body of {length} bytes"})
            try:
                images, prompts = decode_request(self.rfile.read(length))
            except ValueError as exc:
                return self._send(400, {"error": str(exc)})
            try:
                with lock:
                    scores = score(images, prompts)
            except Exception as exc:  # the model failed, not the request: the client gets None
                return self._send(500, {"error": f"{type(exc).__name__}: {exc}"})
            self._send(200, {"mu": [s[0] for s in scores], "sigma": [s[1] for s in scores]})

        def log_message(self, format, *args) -> None:  # quiet: one line per request is noise
            pass

    return ThreadingHTTPServer((host, port), Handler)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve HPSv3 preference scores over HTTP.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--checkpoint", help="a local HPSv3.safetensors (default: the hub's)")
    args = parser.parse_args(argv)
    try:
        score = hpsv3_scorer(args.device, args.checkpoint)
    except ImportError as exc:
        sys.exit(f"the hpsv3 package is missing here: pip install -r "
                 f"services/hpsv3/requirements.txt in this environment ({exc})")  # fmt: skip
    server = make_server(args.host, args.port, score, f"HPSv3 on {args.device}")
    print(f"HPSv3 serving on http://{args.host}:{server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
