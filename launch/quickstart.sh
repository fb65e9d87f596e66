#!/usr/bin/env bash
# The README's main-job command. Today: installs, builds, makes a small corpus of real speech,
# preprocesses it into a feature cache (over MPI ranks), inspects it, and streams it from a
# producer rank to trainer ranks (checking every batch). Training and synthesis join this
# script as they land.
# Usage: launch/quickstart.sh [WORK_DIR=runs/quickstart]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/runs/quickstart}
"$root/launch/setup.sh"
"$root/launch/build.sh"
"$root/launch/make_corpus.sh" "$work/corpus" 200 16000
ranks=$(( $(nproc) > 1 ? 2 : 1 ))
mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$root/build/myxtts" preprocess \
  --config "$root/configs/ljspeech.yaml" --input "$work/corpus" --output "$work/cache" --overwrite
"$root/build/myxtts" inspect "$work/cache"
"$root/build/myxtts" plan --np 3 --config "$root/configs/ljspeech.yaml"
mpirun --allow-run-as-root --oversubscribe -np 3 "$root/build/myxtts" bench pipeline \
  --config "$root/configs/ljspeech.yaml" --cache "$work/cache" --epochs 2 --verify
echo "quickstart: feature cache in $work/cache (features.h5, config.yaml, rejects.tsv, logs/)"
