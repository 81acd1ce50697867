#!/usr/bin/env bash
# Set up everything watercolor needs on a fresh machine of our kind (Debian, Python 3.11,
# Node 20, root): Debian's Chromium, a virtualenv at .venv with CPU torch and the pinned
# Python packages, and the pinned JS libraries (p5, p5.brush). Idempotent: a second run only
# checks. Usage: bash scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's line starts with the minutes set-up has taken so far, so a slow set-up says where.
say() { printf '[setup %d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

if ! command -v chromium >/dev/null 2>&1; then
  say "installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  python3 -m venv .venv
fi
# CPU torch first: anything that depends on torch would otherwise pull a CUDA build (GBs).
if ! .venv/bin/python -c "import torch" >/dev/null 2>&1; then
  say "installing CPU torch"
  .venv/bin/pip install -q torch==2.13.0
fi
stamp=.venv/.watercolor-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  say "installing watercolor and its pinned dependencies"
  .venv/bin/pip install -q -e ".[dev]"
  touch "$stamp"
fi

# Each task that renders with JS libraries pins them in watercolor/tasks/<task>/js/package-lock.json
# (painting: p5.js and p5.brush); install every one that is missing or older than its lockfile.
for lock in watercolor/tasks/*/js/package-lock.json; do
  js=$(dirname "$lock")
  if [ ! -f "$js/node_modules/.package-lock.json" ] || [ "$lock" -nt "$js/node_modules/.package-lock.json" ]; then
    say "installing pinned JS libraries (npm ci --prefix $js)"
    npm ci --prefix "$js" --no-audit --no-fund --loglevel=error
  fi
done
# The embedded tiny painter: command 1's model and the slow tests' default. Built once into
# outputs/cache (3-6 min on 2 idle cores), then found in seconds by its name (its build config and
# the corpus it trains on, watercolor/tasks/painting/painter/tiny.py). It takes
# the cores idle now (watercolor/cores.py), not those the load average left over after pip.
say "building (or finding) the embedded tiny painter"
.venv/bin/python -m watercolor.tasks.painting.painter.tiny --threads "$(.venv/bin/python -m watercolor.cores)"
say "ready: $(chromium --version 2>/dev/null | head -1)"
