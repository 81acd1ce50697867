#!/usr/bin/env bash
# The GPU check of issue 32, as the device tool's calls run it on the lent H200, back to back
# (the machine stays warm 30 s; the kit under /tmp/kit lives only while it does). Each call
# carries one kit part (scripts/gpu_kit.py build --out .kit) and runs one verb here:
#
#   1. bash scripts/gpu/device.sh start     # part 1 (python): build the GPU painter, in the background
#   2. bash scripts/gpu/device.sh receive 2 # the renderer's parts, one call each (receive 3 ...) ...
#   3. bash scripts/gpu/device.sh render 4  # ... the last one (build prints N); then WebGL: SwiftShader vs ANGLE
#   4. bash scripts/gpu/device.sh train     # the recipe: 5 GRPO steps on the GPU painter, real renders
#   5. bash scripts/gpu/device.sh cost      # the real sizes: generation, update, memory (random weights)
#
# What each returns lands in $OUT (at most 8 files a call). Records: experiments/2026-12-04_gpu/.
set -uo pipefail
KIT=/tmp/kit
WORK=/tmp/gpu
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
mkdir -p "$WORK" "$OUT"
# the NVIDIA driver's libraries, for ANGLE's EGL and Vulkan loaders (a read-only mount there)
for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done

receive() { python3 scripts/gpu_kit.py receive ".kit/part$1" --into "$KIT"; }
kit_env() { source "$KIT/env.sh" && export PYTHONPATH="$PYTHONPATH:$PWD"; }

start() {
  receive 1 || exit 1
  kit_env
  { nvidia-smi; python3 -c "import torch, triton, transformers, peft, trl; print(torch.__version__, triton.__version__, transformers.__version__, peft.__version__, trl.__version__)"; nproc; free -g; } >"$OUT/machine.txt" 2>&1
  # setsid: it outlives this call (the machine stays warm while the next calls arrive)
  setsid nohup bash -c "cd '$PWD' && python3 -m watercolor.tasks.painting.painter.tiny_qwen35 --size gpu \
    --cache-root $WORK/cache >$WORK/painter.log 2>&1; echo \$? >$WORK/painter.rc" </dev/null >/dev/null 2>&1 &
  sleep 12
  cat "$OUT/machine.txt"; tail -5 "$WORK/painter.log"
}

render() {
  receive "$1" || exit 1
  kit_env
  "$WATERCOLOR_CHROMIUM" --version
  timeout 300 python3 -m watercolor.bench.webgl --modes swiftshader,egl,vulkan --rich \
    --replies experiments/2026-12-04_gpu/tiny_painter_replies.json --chromium "$WATERCOLOR_CHROMIUM" \
    --workers 8 --json >"$OUT/webgl.txt" 2>"$OUT/webgl.log"
  echo "bench_webgl rc=$?"; tail -20 "$OUT/webgl.log"
  tail -1 "$OUT/webgl.txt" >"$OUT/webgl.json"; grep -v "^{" "$OUT/webgl.txt" | tail -60
  tail -3 "$WORK/painter.log"
}

train() {
  kit_env
  for _ in $(seq 120); do [ -f "$WORK/painter.rc" ] && break; sleep 2; done  # the build, at most 4 min more
  cp "$WORK/painter.log" "$OUT/painter.log"
  [ "$(cat "$WORK/painter.rc" 2>/dev/null)" = 0 ] || { tail -30 "$WORK/painter.log"; exit 1; }
  painter=$(tail -1 "$WORK/painter.log" | grep -o "/.*" || ls -d $WORK/cache/tiny-qwen35-*)
  # The recipe as shipped, but: its own painter, 5 steps, replies capped at 1024 tokens (the
  # corpus's longest is ~430; the recipe's 8192 would let one rambling reply take minutes), and
  # 8 render lanes on this machine's 16 cores; a store of its own. $TRAIN_SET: more overrides
  # (a dry run on a CPU: "trainer.bf16=false +trainer.use_cpu=true model.dtype=float32").
  store=outputs/gpu
  timeout 480 python3 -m watercolor.train model=qwen3_5_35b_a3b "model.name_or_path=$painter" \
    trainer.max_steps=5 trainer.max_completion_length=1024 trainer.save_steps=100 \
    renderer.chromium="$WATERCOLOR_CHROMIUM" renderer.workers=8 hydra.run.dir=$store/run \
    tracking.uri="sqlite:///$PWD/$store/mlflow.db" tracking.artifacts=$store/artifacts \
    ${TRAIN_SET:-} >"$OUT/train.log" 2>&1
  echo "train rc=$?"; grep -v "it/s\]" "$OUT/train.log" | tail -25
  python3 scripts/gpu/step_split.py $store/mlflow.db >"$OUT/split.json"
  tar czf "$OUT/run.tgz" --exclude=final_model $store/mlflow.db $store/artifacts
  head -80 "$OUT/split.json"
}

cost() {
  kit_env
  timeout 420 python3 -m watercolor.bench.gpu --json >"$OUT/cost_moe.json" 2>"$OUT/cost_moe.log"
  echo "bench_gpu rc=$?"; tail -5 "$OUT/cost_moe.log"; cat "$OUT/cost_moe.json"
}

"$@"
