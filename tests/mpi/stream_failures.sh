#!/usr/bin/env bash
# Failures while streaming end the job with a message, never a hang. `timeout` only guards
# against a hang (status 124 = hung); it is not a speed limit.
source "$(dirname "$0")/../e2e/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 24 16000 >/dev/null
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache" --set data.val_count=2 >/dev/null 2>&1
bench=(bench pipeline --cache "$WORK/cache" --set batch.max_frames=1200 --rounds 2 --epochs 3)

run_job() {  # env assignment or "-", then mpirun arguments; sets OUT and STATUS
  local fault=$1; shift
  set +e
  if [ "$fault" == - ]; then
    OUT=$(timeout 180 "${MPIRUN[@]}" "$@" 2>&1)
  else
    OUT=$(timeout 180 "${MPIRUN[@]}" -x "$fault" "$@" 2>&1)
  fi
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] || fail "the job hung: $OUT"
  [ "$STATUS" -ne 0 ] || fail "the job must fail: $OUT"
}

# The producer fails (an error, not a crash): trainers exit with the producer's own text.
run_job MYXTTS_FAULT_PRODUCER_FAIL_AFTER_BATCHES=3 -np 3 "$MYXTTS" "${bench[@]}"
assert_contains "$OUT" "producer rank 0 failed: injected failure after 3 batches" "trainers report the producer's error"
assert_contains "$OUT" "[rank 1]" "a trainer rank speaks"

# A real fault: a damaged chunk in the cache makes the producer fail while reading.
cp "$WORK/cache/features.h5" "$WORK/damaged.h5"
"$PY" - "$WORK/damaged.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:  # where the second mel chunk lies in the file
    offset = f["mel"].id.get_chunk_info(1).byte_offset + 1000
with open(sys.argv[1], "r+b") as f:
    f.seek(offset)
    f.write(b"\xde\xad\xbe\xef" * 4)
PY
run_job - -np 3 "$MYXTTS" bench pipeline --cache "$WORK/damaged.h5" --set batch.max_frames=1200 --rounds 2
assert_contains "$OUT" "$WORK/damaged.h5: features of utterance" "a damaged cache chunk is named"
assert_contains "$OUT" "Fletcher32 checksum" "the checksum caught it"

# The producer is killed mid-epoch: the job ends, naming the rank that died.
run_job MYXTTS_FAULT_PRODUCER_KILL_AFTER_BATCHES=3 -np 3 "$MYXTTS" "${bench[@]}"
assert_contains "$OUT" "rank 0" "the dead producer's rank is named"
ok "killed producer: non-zero exit ($STATUS), no hang"

# A trainer is killed: the job ends, no rank hangs.
run_job MYXTTS_FAULT_TRAINER_KILL_AFTER_BATCHES=2 -np 3 "$MYXTTS" "${bench[@]}"
ok "killed trainer: non-zero exit ($STATUS), no hang"

# SIGTERM to every rank (as Slurm's scancel or a node shutdown sends it): each rank stops with
# a message. (Signalling mpirun itself also ends the job, but mpirun may stop relaying the ranks'
# output once it decides to terminate, so the message is checked this way.)
set +e
timeout 180 "${MPIRUN[@]}" -np 3 "$MYXTTS" bench pipeline --cache "$WORK/cache" --epochs 1000000 --rounds 2 \
  > "$WORK/term.log" 2>&1 &
job=$!
ranks=()
for _ in $(seq 1 600); do  # wait until the three ranks are streaming (at most 60 s)
  ranks=()
  for pid in $(pgrep -f "$WORK/cache --epochs 1000000"); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" == myxtts ] && ranks+=("$pid")
  done
  [ ${#ranks[@]} -eq 3 ] && grep -q "layout:" "$WORK/term.log" && break
  sleep 0.1
done
[ ${#ranks[@]} -eq 3 ] || fail "expected 3 running ranks to signal, found ${#ranks[@]}"
sleep 1
kill -TERM "${ranks[@]}"
wait $job
STATUS=$?
set -e
[ "$STATUS" -ne 124 ] || fail "the job hung after SIGTERM"
[ "$STATUS" -ne 0 ] || fail "an interrupted job must exit non-zero"
assert_contains "$(cat "$WORK/term.log")" "interrupted by SIGTERM; stopping" "SIGTERM stops the ranks with a message"

# A cache made with other parameters is refused before streaming, naming the key.
run_job - -np 3 "$MYXTTS" "${bench[@]}" --set audio.hop_length=200
assert_contains "$OUT" "audio.hop_length: '200' here, '256' there" "other parameters named"
finish
