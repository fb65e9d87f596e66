#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test suite
# (unit, end-to-end, multi-rank under mpirun, torchaudio reference).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/launch/setup.sh"
"$root/launch/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" "$@"
