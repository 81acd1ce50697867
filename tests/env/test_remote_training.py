"""Training with `renderer=remote` against a server that gates differently stops with a clear
error before any reply is sent there: the server's verdicts would not be the run's."""

import signal
import subprocess

import pytest
from env_servers import free_port, start_server, wait_until_healthy
from train_helpers import REPO, train_command  # tests/: on sys.path (pyproject.toml)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_training_stops_on_a_server_with_other_gate_rules(tmp_path):
    port = free_port()
    server = start_server(port, "--set", "task.episode.rules.max_chars=5000", new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, server)
        command = train_command(tmp_path, "renderer=remote", f"renderer.urls=[{url}]")
        result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    assert result.returncode != 0
    assert "EpisodeMismatch" in result.stderr
    assert "rules.max_chars: server 5000, run 20000" in result.stderr
