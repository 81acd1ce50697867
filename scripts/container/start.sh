# Sourced: how the scripts and the tests (tests/env/test_container*.py) start the image.
#   start_subject NAME IMAGE [TASK [COMMAND...]]    wait_healthy NAME [TIMEOUT_S]
#   fleet_network NETWORK                           address_of NAME NETWORK
#
# The container: no network (loopback only; WATERCOLOR_NETWORK names another, e.g. a fleet's
# internal one), a read-only root with tmpfs for /tmp and the user's home (Chromium's profile),
# no capabilities, no privilege gain, the manifest's resources (2 CPUs, 3 GiB), a cap on
# processes, and a /dev/shm large enough for Chromium's pages.
start_subject() {
  local name=$1 image=$2 task=${3:-painting}; shift $(( $# < 3 ? $# : 3 ))
  podman run --detach --name "$name" --network "${WATERCOLOR_NETWORK:-none}" \
    --env WATERCOLOR_TASK="$task" \
    --read-only --tmpfs /tmp:rw,size=512m,mode=1777 --tmpfs /home/painter:rw,size=256m,mode=1777 \
    --cap-drop ALL --security-opt no-new-privileges \
    --cpus 2 --memory 3g --pids-limit 1024 --shm-size 512m \
    "$image" "$@" >/dev/null
}

wait_healthy() {  # the image's HEALTHCHECK, run until it passes
  local name=$1 timeout=${2:-180} start=$SECONDS
  until podman healthcheck run "$name" >/dev/null 2>&1; do
    if [ "$(podman inspect --format '{{.State.Running}}' "$name")" != true ]; then
      podman logs "$name" | tail -20; echo "$name exited during start-up" >&2; return 1
    fi
    if (( SECONDS - start > timeout )); then echo "$name not healthy in $timeout s" >&2; return 1; fi
    sleep 2
  done
  echo "$name healthy in $((SECONDS - start)) s"
}

# A render fleet's network: internal (no route out, no NAT: a sketch reaches nothing beyond it)
# and host-only. netavark 1.4 (Debian 12) forwards no published port (-p) on an internal network,
# so the host reaches each server at its address there (address_of), not on loopback; the
# servers of one fleet can reach each other.
fleet_network() {
  podman network exists "$1" || podman network create --internal "$1" >/dev/null
}

address_of() {  # NAME NETWORK -> http://ADDRESS:PORT, the server's URL from the host
  local ip port
  ip=$(podman inspect --format "{{(index .NetworkSettings.Networks \"$2\").IPAddress}}" "$1")
  port=$(podman inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$1" \
    | sed -n 's/^WATERCOLOR_PORT=//p')
  echo "http://$ip:${port:-8100}"
}
