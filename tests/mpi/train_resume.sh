#!/usr/bin/env bash
# Checkpoints and resume under mpirun (1 producer + 2 trainers): 6 steps straight equal 3 steps,
# stop, resume, 3 more (bit-identical parameters); a trainer killed while writing the step-6
# checkpoint leaves step 3 as the newest complete one and --resume auto continues from it to the
# same parameters; resuming with another model config or another cache is refused by name; a
# non-finite loss on one trainer skips that step on every trainer (and too many stop the run).
source "$(dirname "$0")/../e2e/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 24 16000 >/dev/null
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache" --set data.val_count=3 >/dev/null 2>&1
train() {  # run directory, extra args...
  local run=$1; shift
  "${MPIRUN[@]}" -np 3 "$MYXTTS" train --config "$ROOT/configs/tiny.yaml" --set train.cache="$WORK/cache" \
    --set train.output_dir="$run" --set batch.max_frames=1200 --set train.validation_interval=3 \
    --set train.checkpoint_interval=3 --set train.warmup_steps=2 --set train.decay=constant "$@"
}
digest() { sed -n 's/^parameter_digest: "\(.*\)"/\1/p' "$1/state.yaml"; }

train "$WORK/straight" --set train.steps=6 > "$WORK/straight.log" 2>&1 || { cat "$WORK/straight.log"; fail "straight run"; }
want=$(digest "$WORK/straight/checkpoints/step-00000006")
[ -n "$want" ] || fail "no parameter digest in the step-6 checkpoint"
ok "6 steps straight: parameters $want"

train "$WORK/stopped" --set train.steps=3 > "$WORK/stopped.log" 2>&1 || { cat "$WORK/stopped.log"; fail "first half"; }
train "$WORK/stopped" --set train.steps=6 --resume auto > "$WORK/resumed.log" 2>&1 || { cat "$WORK/resumed.log"; fail "resume"; }
assert_contains "$(cat "$WORK/resumed.log")" "resuming from $WORK/stopped/checkpoints/step-00000003" "resume picks step 3"
assert_eq "$(digest "$WORK/stopped/checkpoints/step-00000006")" "$want" "3 + resume + 3 steps = 6 steps straight"

export MYXTTS_FAULT_CHECKPOINT_KILL_AT_STEP=6  # trainer 0 is SIGKILLed halfway through that checkpoint
expect_failure "a kill while writing the step-6 checkpoint" train "$WORK/killed" --set train.steps=6
unset MYXTTS_FAULT_CHECKPOINT_KILL_AT_STEP
[ -d "$WORK/killed/checkpoints/step-00000006.partial" ] || fail "the interrupted checkpoint should be left as .partial"
[ -f "$WORK/killed/checkpoints/step-00000003/state.yaml" ] || fail "step 3 should be complete"
ok "the kill left step 3 complete and step 6 partial"
train "$WORK/killed" --set train.steps=6 --resume auto > "$WORK/killed2.log" 2>&1 || { cat "$WORK/killed2.log"; fail "resume after kill"; }
assert_contains "$(cat "$WORK/killed2.log")" "resuming from $WORK/killed/checkpoints/step-00000003" "--resume auto skips the partial checkpoint"
assert_eq "$(digest "$WORK/killed/checkpoints/step-00000006")" "$want" "killed + resumed = 6 steps straight"
[ ! -e "$WORK/killed/checkpoints/step-00000006.partial" ] || fail "the partial checkpoint should be gone"

expect_failure "resuming with another model width" train "$WORK/stopped" --set train.steps=9 --set model.dim=32 --resume auto
assert_contains "$OUT" "model.dim" "the refusal names model.dim"
expect_failure "starting over an existing run without --resume" train "$WORK/stopped" --set train.steps=9
assert_contains "$OUT" "--resume auto" "the refusal says how to continue"
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache2" --set data.val_count=4 >/dev/null 2>&1
expect_failure "resuming against another cache" train "$WORK/stopped" --set train.steps=9 --set train.cache="$WORK/cache2" --resume auto
assert_contains "$OUT" "another cache" "the refusal names the cache"

export MYXTTS_FAULT_NONFINITE_LOSS_AT_STEP=1  # the last trainer's loss becomes NaN in step 2
train "$WORK/nan" --set train.steps=3 --set train.check_replicas_interval=1 > "$WORK/nan.log" 2>&1 || { cat "$WORK/nan.log"; fail "a NaN step"; }
assert_contains "$(cat "$WORK/nan.log")" "step 2: non-finite loss or gradient" "the NaN step is reported"
assert_contains "$(grep '"kind": "train"' "$WORK/nan/metrics.jsonl" | tail -1)" '"skipped_steps": 1' "and counted once, with the replicas still identical"
expect_failure "a NaN step when train.max_skipped_steps=1" train "$WORK/nan1" --set train.steps=3 --set train.max_skipped_steps=1
assert_contains "$OUT" "1 non-finite steps in a row at step 2" "the run stops with a message"
unset MYXTTS_FAULT_NONFINITE_LOSS_AT_STEP
finish
