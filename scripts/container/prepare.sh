#!/usr/bin/env bash
# Make this machine able to build and run the environment's image with podman, from Debian's
# packages only (our machines reach Debian, PyPI and npm, but no image registry). Idempotent: a
# second run only checks. Needs root. Usage: bash scripts/container/prepare.sh
#
# 1. podman, runc, mmdebstrap and podman-docker (the `docker` command OpenEnv's validator calls);
# 2. scripts/container/containers.conf (runc, no default ulimits), named by CONTAINERS_CONF:
#    export it in every shell that runs podman (`source scripts/container/env.sh`);
# 3. a Debian 12 base image with Python 3.11 (localhost/watercolor-base:bookworm), made with
#    mmdebstrap and `podman import`: the stand-in for `python:3.11-slim-bookworm`, which a user
#    with a registry builds FROM.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { printf '[prepare %d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
source scripts/container/env.sh

if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v mmdebstrap >/dev/null \
  || ! dpkg -s podman-docker >/dev/null 2>&1; then
  say "installing Debian's podman, runc, mmdebstrap, podman-docker"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc mmdebstrap podman-docker >/dev/null
fi

if ! podman image exists "$WATERCOLOR_BASE_IMAGE"; then
  tar=outputs/container/base.tar
  mkdir -p "$(dirname "$tar")"
  if [ ! -s "$tar" ]; then
    say "building a Debian 12 root with Python 3.11 (mmdebstrap, ~1 min)"
    nice -n 10 mmdebstrap --quiet --variant=minbase --include=python3,python3-venv \
      bookworm "${tar%.tar}.part.tar" http://deb.debian.org/debian
    mv "${tar%.tar}.part.tar" "$tar"
  fi
  say "importing it as $WATERCOLOR_BASE_IMAGE"
  podman import --quiet --change 'CMD ["/bin/bash"]' "$tar" "$WATERCOLOR_BASE_IMAGE" >/dev/null
fi
say "ready: $(podman --version), runtime $(podman info --format '{{.Host.OCIRuntime.Name}}'), base $(podman run --rm --network none "$WATERCOLOR_BASE_IMAGE" python3 --version)"
