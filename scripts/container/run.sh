#!/usr/bin/env bash
# Start the environment's image with no network, run the README's client snippet against it from
# a second container that shares only its network namespace, and stop it.
#   bash scripts/container/run.sh          # builds the image first when it is missing
#
# `--network none` gives the server's container a network namespace with loopback only: nothing
# it runs (the server, Chromium, a sketch that escaped the page) has a route out, enforced by the
# kernel. A published port (-p) needs a network with a route (podman's bridge, or pasta/slirp
# for rootless), so instead the client joins that namespace (`--network container:NAME`), as
# OpenEnv's validator reaches a no-network subject; from the host, root can also enter it
# (`nsenter -t PID -n`). For a server other machines reach, run it with `-p HOST:8100:8100` on a
# network of its own instead, and keep the outbound rules on that network.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/container/env.sh
image="$WATERCOLOR_IMAGE:latest"
name="watercolor-env-$$"
podman image exists "$image" || bash scripts/container/build.sh

source scripts/container/start.sh  # start_subject NAME IMAGE, wait_healthy NAME
trap 'podman rm -f --time 10 "$name" >/dev/null 2>&1 || true' EXIT
start_subject "$name" "$image" painting  # the snippet paints p5.brush
wait_healthy "$name"
snippet=$(python3 -c '
import re, sys
readme = open("README.md").read().split("<!-- env-client-snippet -->", 1)[1]
print(re.findall(r"^```python\n(.*?)^```$", readme, re.S | re.M)[0])')
echo "README snippet against $image (no network; client in its network namespace):"
podman run --rm -i --network "container:$name" --read-only --cap-drop ALL \
  --security-opt no-new-privileges "$image" python - <<<"$snippet"
