#!/usr/bin/env bash
# Runs a command with oneMKL taking its Intel code path whatever the CPU's vendor
# (scripts/mkl_as_on_intel.c says why). For the revision study's parts on AMD CPUs:
#   bash scripts/mkl_as_on_intel.sh .venv/bin/python -m watercolor.tasks.painting.painter.tiny --threads 2
# rebuilt the study's base painter (sha256 7fba23e24fa4...) on an AMD EPYC machine, as the Intel
# Xeon machines build it. On an Intel CPU the preload changes nothing. Only the command's own
# process keeps the preload: a watercolor process removes it from what its children inherit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$root/outputs/cache/mkl_as_on_intel.so"
if [[ ! -f "$lib" || "$root/scripts/mkl_as_on_intel.c" -nt "$lib" ]]; then
    mkdir -p "$(dirname "$lib")"
    gcc -shared -fPIC -O2 -o "$lib.$$" "$root/scripts/mkl_as_on_intel.c"
    mv -f "$lib.$$" "$lib"  # whole, even when two commands start at once
fi
export LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}"
# Scoped to the command's own process: importing watercolor takes the library back out of the
# environment, so the browsers, node and workers that process starts run without it.
export WATERCOLOR_PRELOADED="$lib"
exec "$@"
