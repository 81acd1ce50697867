#!/bin/bash
# usage: probe_jobs.sh N STEPS TAG [overrides...]: N training jobs of STEPS steps at once
# (threads=1 each), vmstat every 5 s, into /tmp/prof/TAG; then: python probe_steps.py TAG
N=$1; STEPS=$2; TAG=$3; shift 3
cd "$(dirname "$0")/../.."
rm -rf /tmp/prof/$TAG; mkdir -p /tmp/prof/$TAG
vmstat 5 > /tmp/prof/$TAG/vmstat.txt &
VM=$!
start=$(date +%s)
for i in $(seq 1 $N); do
  .venv/bin/python -m watercolor.train trainer.max_steps=$STEPS threads=1 hydra.run.dir=/tmp/prof/$TAG/job$i/run tracking.uri=sqlite:////tmp/prof/$TAG/job$i/mlflow.db tracking.artifacts=/tmp/prof/$TAG/job$i/art tracking.log_canvases_every=0 seed=$i "$@" > /tmp/prof/$TAG/job$i.log 2>&1 &
done
wait $(jobs -p | grep -v $VM) 2>/dev/null
for i in $(seq 1 $N); do wait; done
end=$(date +%s); kill $VM
echo "wall $((end-start))" > /tmp/prof/$TAG/wall.txt
