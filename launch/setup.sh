#!/usr/bin/env bash
# Installs the Debian 12 packages MyXTTS builds and runs with; does nothing when all are present.
# Safe to run again. Needs root (or sudo).
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libtorch-dev libopenmpi-dev openmpi-bin
  libhdf5-dev libsndfile1-dev libsoxr-dev libspdlog-dev libyaml-cpp-dev libcli11-dev
  libespeak-ng-dev espeak-ng libpng-dev libgtest-dev
  sox python3-torchaudio python3-h5py
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages present"
  exit 0
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup.sh: run as root (or install sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup.sh: installing ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
