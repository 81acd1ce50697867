#!/usr/bin/env bash
# Build the environment's image (envs/Dockerfile) with podman on a machine of our kind: FROM the
# Debian base that prepare.sh imports (no registry serves python:3.11-slim-bookworm here), the
# build's RUN steps on the host's network (Debian, PyPI, npm) trusting the machine's CA bundle.
# Prints the build time and the image's size.
#   bash scripts/container/build.sh             # localhost/watercolor-env:latest (both tasks)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/container/env.sh
image="$WATERCOLOR_IMAGE:latest"
bash scripts/container/prepare.sh
ca="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"
start=$SECONDS
# --format docker: OCI images have no HEALTHCHECK; --network host: the RUN steps reach the
# registries of packages (a build's own network namespace here has no route out).
nice -n "${NICE:-10}" podman build --format docker --network host \
  --volume "$ca:$ca:ro" --build-arg CA_BUNDLE="$ca" \
  --build-arg BASE="$WATERCOLOR_BASE_IMAGE" --build-arg JS_BASE="$WATERCOLOR_BASE_IMAGE" \
  --file envs/Dockerfile --tag "$image" .
echo "built $image in $((SECONDS - start)) s: $(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1e6}')"
