"""The painting task served as an OpenEnv environment.

    python -m watercolor.env.serve --port 8000            # server: many sessions, one pool
    from watercolor.env.client import PaintEnv, paint_remote

models.py (wire types), environment.py (PaintEnvironment), scoring.py (default score),
serve.py (the server), client.py (typed client, remote painting).
"""
