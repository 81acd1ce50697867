# Sourced: how the scripts and tests/env/test_container.py start the image.
#   start_subject NAME IMAGE [TASK [COMMAND...]]    wait_healthy NAME [TIMEOUT_S]
#
# The container: no network (loopback only), a read-only root with tmpfs for /tmp and the user's
# home (Chromium's profile), no capabilities, no privilege gain, the manifest's resources
# (2 CPUs, 3 GiB), a cap on processes, and a /dev/shm large enough for Chromium's pages.
start_subject() {
  local name=$1 image=$2 task=${3:-painting}; shift $(( $# < 3 ? $# : 3 ))
  podman run --detach --name "$name" --network none --env WATERCOLOR_TASK="$task" \
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
