"""The real server as a subprocess: concurrent sessions on one pool, clients, clean shutdown."""

import asyncio
import base64
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from env_servers import free_port, start_server, wait_until_healthy

from watercolor.config import reward_set
from watercolor.env.client import CanvasEnv, paint_remote, paint_session
from watercolor.env.models import CanvasAction
from watercolor.tasks.painting.feedback import feedback

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_SESSIONS = 2


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (read from /proc: Playwright's driver, Chromium, renderers)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        try:
            parents[int(entry.name)] = int(process_stat(int(entry.name))[1])
        except (ValueError, OSError, IndexError):
            continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def process_stat(pid: int) -> list[str]:
    """/proc/PID/stat after the command name: state, parent pid, ..."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_state(pid: int) -> str | None:
    """'R', 'S', ... for a live process, 'Z' for a zombie, None when it is gone.

    Zombies are tolerated: Chromium's zygotes are orphaned when the browser exits, and PID 1
    in our containers does not reap orphans (DESIGN.md §6); they hold no memory or CPU.
    """
    try:
        return process_stat(pid)[0]
    except OSError:
        return None


@pytest.fixture(scope="module")
def server():
    """`python -m watercolor.env.serve` on a free loopback port; always terminated."""
    port = free_port()
    flags = ["--max-sessions", str(MAX_SESSIONS), "--workers", "2"]
    flags += ["--time-limit", "60"]  # generous: CI machines are shared and slow
    flags += ["--reward", "gated"]  # a hard gate: any refused reply scores 0
    process = start_server(port, *flags)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process)
        yield url, process
    finally:
        children = descendants(process.pid)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert len(children) > 2, "the server ran no browser"
    left = [pid for pid in children if process_state(pid) not in (None, "Z")]
    assert not left, f"processes outlived the server: {left}"


async def episode(url: str, seed: int, good: str, bad: str):
    """One session: a watercolour episode, then a bad-reply episode."""
    async with CanvasEnv(base_url=url, message_timeout_s=300) as env:
        first = await env.reset(seed=seed)
        painted = await env.step(CanvasAction(reply=good))
        await env.reset(seed=seed + 100)
        refused = await env.step(CanvasAction(reply=bad))
        return first.observation, painted, refused


async def test_two_sessions_render_at_once(server, watercolour_reply, bad_reply):
    url, _ = server
    started = time.perf_counter()
    runs = await asyncio.gather(*(episode(url, s, watercolour_reply, bad_reply) for s in (1, 2)))
    wall = time.perf_counter() - started
    for first, painted, refused in runs:
        assert first.prompt and first.system_prompt and not first.done
        obs = painted.observation
        assert obs.status == "ok", obs.errors
        assert 0.0 < painted.reward == obs.score <= 1.0 and painted.done
        assert base64.b64decode(obs.png_base64).startswith(b"\x89PNG")
        assert obs.to_canvas().rgba is not None
        assert refused.observation.status == "violation" and refused.observation.violations
        assert refused.reward == 0.0 and refused.observation.score == 0.0
    # Server-side clocks: each step started before the other finished (both in flight).
    spans = [
        (p.observation.metadata["step_started"], p.observation.metadata["step_finished"])
        for _, p, _ in runs
    ]
    assert max(start for start, _ in spans) < min(end for _, end in spans), spans
    union = max(end for _, end in spans) - min(start for start, _ in spans)
    assert union < sum(end - start for start, end in spans)
    print(f"\ntwo sessions: wall {wall:.1f} s, steps {[round(e - s, 2) for s, e in spans]} s")


async def test_paint_remote_skips_a_dead_server_and_gives_none_when_all_are(server, bad_reply):
    url, _ = server
    dead = f"http://127.0.0.1:{free_port()}"
    # The reply whose turn is the dead server's goes to the live one: nothing ran on the dead.
    first, second = await paint_remote([url, dead], [bad_reply, bad_reply], seeds=[5, 6])
    assert first.status == second.status == "violation" and second.reward == 0.0
    (lost,) = await paint_remote([dead], [bad_reply], seeds=[7])
    assert lost.status == "infra_error" and lost.reward is None and dead in lost.errors[0]


def test_stateless_http_step_paints_for_a_fresh_episode(server, bad_reply):
    url, _ = server
    answer = httpx.post(f"{url}/step", json={"action": {"reply": bad_reply}}, timeout=60).json()
    assert answer["done"] and answer["reward"] == 0.0
    assert answer["observation"]["prompt"] and answer["observation"]["status"] == "violation"
    assert httpx.get(f"{url}/metadata", timeout=10).json()["name"] == "watercolor"


async def test_one_turn_sessions_end_at_their_step_with_feedback(server, bad_reply):
    """conf/task's default turns: 1. The step ends the episode, a second step is refused."""
    url, _ = server
    async with CanvasEnv(base_url=url, message_timeout_s=300) as env:
        (final,) = await paint_session(env, lambda messages: bad_reply, seed=10)
        with pytest.raises(RuntimeError, match=r"episode is over \(1 step\(s\)"):
            await env.step(CanvasAction(reply=bad_reply))
        state = await env.state()
    assert final.done and final.reward == 0.0 and (state.turns, state.step_count) == (1, 1)
    canvas = final.observation.to_canvas(reply=bad_reply)
    score = reward_set("gated").score(canvas, prompt=final.observation.prompt)
    assert final.observation.feedback == feedback(canvas, score)


async def test_max_sessions_is_enforced(server):
    url, _ = server
    async with CanvasEnv(base_url=url) as a, CanvasEnv(base_url=url) as b:
        await asyncio.gather(a.reset(seed=1), b.reset(seed=2))
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            async with CanvasEnv(base_url=url) as extra:
                await extra.reset(seed=3)


async def test_a_client_that_drops_mid_step_does_not_hurt_the_server(
    server, watercolour_reply, bad_reply
):
    url, process = server
    async with CanvasEnv(base_url=url) as quitter:
        await quitter.reset(seed=8)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(quitter.step(CanvasAction(reply=watercolour_reply)), 0.5)
    async with CanvasEnv(base_url=url) as env:
        await env.reset(seed=9)
        result = await env.step(CanvasAction(reply=bad_reply))
    assert result.observation.status == "violation" and process.poll() is None


async def test_training_scores_rollouts_rendered_on_the_server(
    server, watercolour_reply, bad_reply
):
    """renderer=remote: the TRL adapter paints through the server and scores locally."""
    from watercolor.config import reward_set
    from watercolor.env.client import RemoteRenderer
    from watercolor.rewards.trl_adapter import RolloutScorer

    url, _ = server
    batches = []
    # One session at a time: the module's server takes MAX_SESSIONS = 2, and the dropped client
    # of the test before may still hold one while its render finishes.
    renderer = RemoteRenderer([url], sessions_per_server=1)
    scorer = RolloutScorer(
        reward_set("gated"), renderer, num_generations=2, on_batch=batches.append
    )
    funcs, weights = scorer.reward_functions()
    completions = [[{"role": "assistant", "content": r}] for r in (watercolour_reply, bad_reply)]
    prompts = [[{"role": "user", "content": "paint a blue pond in watercolour"}]] * 2
    outputs = await asyncio.gather(*(f(prompts=prompts, completions=completions) for f in funcs))
    (batch,) = batches
    assert [c.status for c in batch.canvases] == ["ok", "violation"], batch.canvases[0].errors
    totals = [sum(w * out[i] for w, out in zip(weights, outputs, strict=True)) for i in range(2)]
    assert totals[0] == pytest.approx(batch.scores[0].total) and totals[0] > 0
    assert totals[1] == 0


async def test_a_server_running_another_episode_is_refused_with_the_keys_that_differ(
    server, watercolour_reply
):
    """renderer=remote with the run's task.episode: the server's (defaults) must be the same."""
    from omegaconf import OmegaConf

    from watercolor.config import compose_train
    from watercolor.env.client import EpisodeMismatch, RemoteRenderer

    url, _ = server
    ours = OmegaConf.to_container(compose_train().task.episode, resolve=True)
    same = RemoteRenderer([url], sessions_per_server=1, episode=ours)
    assert (await same(watercolour_reply)).status == "ok"
    other = ours | {"rules": ours["rules"] | {"max_chars": 50}}
    renderer = RemoteRenderer([url], sessions_per_server=1, episode=other)
    with pytest.raises(EpisodeMismatch, match=r"rules\.max_chars: server 20000, run 50"):
        await renderer(watercolour_reply)
    assert renderer.servers[0].taken == 0  # refused before any reply was sent
