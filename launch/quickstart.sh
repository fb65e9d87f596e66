#!/usr/bin/env bash
# The README's main-job command. Today: installs, builds, makes a small corpus of real speech,
# preprocesses it into a feature cache (over MPI ranks), inspects it, streams it from a producer
# rank to trainer ranks (checking every batch), trains the tiny model with launch/train.sh
# (resuming if interrupted) and synthesises three sentences the corpus does not contain.
# Usage: launch/quickstart.sh [WORK_DIR=runs/quickstart]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/runs/quickstart}
# QUICKSTART_SKIP_SETUP=1 (tests: already installed and built), QUICKSTART_UTTERANCES, QUICKSTART_STEPS.
if [ -z "${QUICKSTART_SKIP_SETUP:-}" ]; then
  "$root/launch/setup.sh"
  "$root/launch/build.sh"
fi
# Each stage is skipped when its output is complete, so an interrupted run picks up where it was.
[ -f "$work/corpus/metadata.csv" ] || "$root/launch/make_corpus.sh" "$work/corpus" "${QUICKSTART_UTTERANCES:-200}" 16000
ranks=$(( $(nproc) > 1 ? 2 : 1 ))
[ -f "$work/cache/features.h5" ] || mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$root/build/myxtts" \
  preprocess --config "$root/configs/ljspeech.yaml" --input "$work/corpus" --output "$work/cache"
"$root/build/myxtts" inspect "$work/cache"
"$root/build/myxtts" plan --np 3 --config "$root/configs/ljspeech.yaml"
mpirun --allow-run-as-root --oversubscribe -np 3 "$root/build/myxtts" bench pipeline \
  --config "$root/configs/ljspeech.yaml" --cache "$work/cache" --epochs 2 --verify
"$root/launch/train.sh" "$root/configs/ljspeech.yaml" --config "$root/configs/tiny.yaml" \
  --set train.cache="$work/cache" --set train.output_dir="$work/run" --set train.steps="${QUICKSTART_STEPS:-400}" \
  --set train.validation_interval=100 --set train.checkpoint_interval=100 --resume auto
# Sentences that are not in the corpus (launch/make_corpus.sh).
printf '%s\n' "Seven green bottles stood on the kitchen table." "My friend will visit the old library tomorrow." \
  "Rain is falling softly on the quiet village." > "$work/sentences.txt"
"$root/build/myxtts" synthesize --checkpoint "$work/run" --text-file "$work/sentences.txt" --out-dir "$work/samples"
echo "quickstart: feature cache in $work/cache (features.h5, config.yaml, rejects.tsv, logs/)"
echo "quickstart: training run in $work/run (checkpoints/, metrics.jsonl, events/ for TensorBoard, images/)"
echo "quickstart: speech in $work/samples (0001.wav ... with .mel.png and .alignment.png next to each)"
