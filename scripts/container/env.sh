# Sourced by the container scripts (and by a shell that runs podman here):
#   source scripts/container/env.sh
# podman's settings for our machines, and the names of the images the scripts make.
export CONTAINERS_CONF="${CONTAINERS_CONF:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf}"
export WATERCOLOR_BASE_IMAGE="${WATERCOLOR_BASE_IMAGE:-localhost/watercolor-base:bookworm}"
export WATERCOLOR_IMAGE="${WATERCOLOR_IMAGE:-localhost/watercolor-env}"
