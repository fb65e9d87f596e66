#!/usr/bin/env bash
# A run killed midway (SIGKILL, as a crash or an OOM kill) and started again does not redo
# finished work and ends with the same cache as an uninterrupted run.
source "$(dirname "$0")/../e2e/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 30 16000 >/dev/null
common=(preprocess -i "$WORK/corpus" --set preprocess.chunk_size=3 --workers 1)
"$MYXTTS" "${common[@]}" -o "$WORK/straight" >/dev/null 2>&1

# One rank, killed after writing 4 of its 10 work units.
set +e
MYXTTS_FAULT_KILL_AFTER_PARTS=4 "$MYXTTS" "${common[@]}" -o "$WORK/resumed" >/dev/null 2>&1
status=$?
set -e
assert_eq "$status" "137" "the first run died of SIGKILL"
[ ! -e "$WORK/resumed/features.h5" ] || fail "a killed run must not leave a cache"
"$MYXTTS" inspect "$WORK/resumed" >/dev/null 2>&1 && fail "inspect must refuse an unfinished cache"
ok "no cache is visible after the kill"
out=$("$MYXTTS" "${common[@]}" -o "$WORK/resumed" 2>&1)
assert_contains "$out" "resuming: 4 of 10 work units already done" "finished work is not redone"
grep -q "6 chunk(s) on 1 worker thread(s)" "$WORK/resumed/logs/rank-00000.log" || fail "the rerun must process only the 6 missing units"
ok "the rerun processed only the 6 missing units"
cmp "$WORK/straight/features.h5" "$WORK/resumed/features.h5" || fail "resumed cache differs"
ok "resumed cache == uninterrupted cache (1 rank)"

# Two ranks: one dies, mpirun ends the job; the rerun (on 3 ranks) finishes it.
set +e
MYXTTS_FAULT_KILL_AFTER_PARTS=2 "${MPIRUN[@]}" -np 2 "$MYXTTS" "${common[@]}" -o "$WORK/mpi" >/dev/null 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "the killed MPI job must exit non-zero"
ok "killed MPI job exits non-zero ($status)"
out=$("${MPIRUN[@]}" -np 3 "$MYXTTS" "${common[@]}" -o "$WORK/mpi" 2>&1)
assert_contains "$out" "resuming:" "the MPI rerun resumes"
cmp "$WORK/straight/features.h5" "$WORK/mpi/features.h5" || fail "resumed MPI cache differs"
ok "resumed multi-rank cache == uninterrupted cache"

# Changing a feature parameter between the runs is refused, naming the key.
set +e
MYXTTS_FAULT_KILL_AFTER_PARTS=1 "$MYXTTS" "${common[@]}" -o "$WORK/changed" >/dev/null 2>&1
set -e
expect_failure "resume with other settings" "$MYXTTS" "${common[@]}" -o "$WORK/changed" --set audio.n_mels=64
assert_contains "$OUT" "audio.n_mels: '64' here, '80' there" "the differing key is named"
finish
