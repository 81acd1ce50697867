"""A task served as an OpenEnv environment (painting by default; `--set task=svg` for SVG).

    python -m watercolor.env.serve                        # server: many sessions, one pool
    from watercolor.env.client import PaintEnv, paint_remote

models.py (wire types), environment.py (PaintEnvironment), scoring.py (default score),
rubric.py (the reward set as an OpenEnv rubric tree), manifest.py (envs/<task>/openenv.yaml),
serve.py (the server), client.py (typed client, remote painting).

`PORT` is the server's default port (`serve --port`) and where `RemotePainter` (the render
fleet, `renderer=remote`) looks when given no server: the one place it is set. It is none of the
other services' defaults, so they can share a machine: TRL's vLLM server takes 8000
(conf/sampler/vllm_server.yaml), the VLM judge 8001 (conf/reward/blocks/judge/vlm.yaml), the HPSv3
service 8765 (services/hpsv3/serve.py).
"""

PORT = 8100
