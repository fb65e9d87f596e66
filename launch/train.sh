#!/usr/bin/env bash
# Trains on this machine with whatever it has: counts the GPUs (MYXTTS_GPUS overrides), asks
# `myxtts plan` whether the layout works, and runs mpirun root-safe with one producer rank and
# its trainers. No GPU: 1 producer + 2 CPU trainers. One GPU: a CPU producer + 1 GPU trainer.
# N GPUs: N ranks, the producer on GPU 0 and trainers on GPU 1..N-1 (myxtts plan shows it).
# Usage: launch/train.sh CONFIG.yaml [more myxtts train args: --config PRESET, --set k=v, --resume auto]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
config=${1:?usage: launch/train.sh CONFIG.yaml [myxtts train args...]}
shift
gpus=${MYXTTS_GPUS:-$( (command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -c '^GPU') || echo 0)}
case $gpus in
  0) ranks=3 ;;
  1) ranks=2 ;;
  *) ranks=$gpus ;;
esac
"$root/build/myxtts" plan --np "$ranks" --gpus-per-node "$gpus" --config "$config"
# --bind-to none: libtorch's threads must not share the one core Open MPI would pin each rank to.
exec mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$ranks" \
  "$root/build/myxtts" train --config "$config" --set layout.gpus_per_node="$gpus" "$@"
