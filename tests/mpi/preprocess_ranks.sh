#!/usr/bin/env bash
# `mpirun -np N myxtts preprocess` gives the very same cache as one rank: byte for byte.
source "$(dirname "$0")/../e2e/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 30 16000 >/dev/null
common=(preprocess -i "$WORK/corpus" --set preprocess.chunk_size=4)
"$MYXTTS" "${common[@]}" -o "$WORK/one" --workers 1 >/dev/null 2>&1
"${MPIRUN[@]}" -np 3 "$MYXTTS" "${common[@]}" -o "$WORK/three" --workers 1 >/dev/null 2>&1
"${MPIRUN[@]}" -np 2 "$MYXTTS" "${common[@]}" -o "$WORK/two-threaded" --workers 2 >/dev/null 2>&1
cmp "$WORK/one/features.h5" "$WORK/three/features.h5" || fail "3 ranks differ from 1 rank"
ok "3 ranks x 1 thread == 1 rank"
cmp "$WORK/one/features.h5" "$WORK/two-threaded/features.h5" || fail "2 ranks x 2 threads differ from 1 rank"
ok "2 ranks x 2 threads == 1 rank"
for r in 0 1 2; do [ -s "$WORK/three/logs/rank-0000$r.log" ] || fail "rank $r wrote no log"; done
ok "every rank writes its own log file"

# A fatal error on one rank ends the whole job with the message, never a hang
# (`timeout` only guards against a hang; it is not a speed limit).
set +e
OUT=$(timeout 120 "${MPIRUN[@]}" -np 3 "$MYXTTS" "${common[@]}" -o "$WORK/three" 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "the job must end non-zero on its own (status $status)"
ok "an MPI job writing over an existing cache ends non-zero, no hang"
assert_contains "$OUT" "already exists; pass --overwrite" "the failing rank's message reaches the console"
finish
