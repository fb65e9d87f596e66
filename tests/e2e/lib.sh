# Shared helpers for the shell-driven end-to-end and multi-rank tests (sourced, not run).
# Each test gets: $MYXTTS (the binary), $ROOT (repository), $WORK (fresh scratch directory),
# $PY (Debian's python3 with h5py/torchaudio) and $MPIRUN (root-safe, oversubscribing).
set -euo pipefail
MYXTTS=${1:?usage: test.sh MYXTTS_BINARY}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/myxtts-e2e.XXXXXX")
PY=/usr/bin/python3
MPIRUN=(mpirun --allow-run-as-root --oversubscribe)
trap 'rm -rf "$WORK"' EXIT
export OMPI_MCA_rmaps_base_oversubscribe=1

checks=0
fail() { echo "FAIL: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
ok() { checks=$((checks + 1)); echo "ok - $*"; }
assert_eq() { [ "$1" == "$2" ] || fail "$3: expected '$2', got '$1'"; ok "$3"; }
assert_contains() { grep -qF -- "$2" <<<"$1" || fail "$3: output lacks '$2'. Output was:"$'\n'"$1"; ok "$3"; }
# Runs a command that must fail; its combined output lands in $OUT.
expect_failure() {
  local what=$1; shift
  if OUT=$("$@" 2>&1); then fail "$what: succeeded but should have failed. Output:"$'\n'"$OUT"; fi
  ok "$what fails"
}
finish() { echo "$checks passed, 0 failed"; }
