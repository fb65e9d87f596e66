#!/usr/bin/env bash
# The tiny preset trained by 1 producer + 2 trainers under mpirun on a small espeak-ng corpus:
# the loss falls by a stated factor within a stated number of steps, the trainers' parameters are
# checked identical after every step, every validation alignment is monotonic and covers every
# token and frame, the duration predictor's error falls, old checkpoints are pruned (newest +
# best kept), and the TensorBoard event file decodes
# (framing and CRCs) with the same scalars as metrics.jsonl.
source "$(dirname "$0")/../e2e/lib.sh"
STEPS=120
LOSS_FACTOR=2.0   # first logged training loss / last
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 48 16000 >/dev/null
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache" --set data.val_count=6 >/dev/null 2>&1
"${MPIRUN[@]}" -np 3 "$MYXTTS" train --config "$ROOT/configs/tiny.yaml" --set train.cache="$WORK/cache" \
  --set train.output_dir="$WORK/run" --set train.steps=$STEPS --set train.validation_interval=40 \
  --set train.checkpoint_interval=40 --set train.keep_checkpoints=1 --set train.check_replicas_interval=1 --set batch.max_frames=1600 \
  > "$WORK/train.log" 2>&1 || { cat "$WORK/train.log"; fail "training failed"; }
ok "1 producer + 2 trainers trained $STEPS steps with the replicas compared after every step"

"$PY" - "$WORK/run/metrics.jsonl" "$LOSS_FACTOR" "$STEPS" <<'PY' || fail "metrics"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
factor, steps = float(sys.argv[2]), int(sys.argv[3])
train = [r for r in rows if r["kind"] == "train"]
val = [r for r in rows if r["kind"] == "validation"]
first, last = train[0], train[-1]
assert last["step"] == steps, last
assert first["loss"] / last["loss"] >= factor, f"loss {first['loss']} -> {last['loss']}: fell less than {factor}x"
print(f"ok - training loss {first['loss']:.3f} (step {first['step']}) -> {last['loss']:.3f} (step {last['step']})")
assert [r["step"] for r in val] == [40, 80, 120], [r["step"] for r in val]
assert all(r["alignment_violations"] == 0 for r in val), val
assert all(r["utterances"] >= 6 for r in val), val
print("ok - every validation alignment covers every token and frame")
assert val[-1]["duration_error_frames"] < val[0]["duration_error_frames"], val
assert val[-1]["mel_l1"] < val[0]["mel_l1"], val
print(f"ok - duration error {val[0]['duration_error_frames']:.2f} -> {val[-1]['duration_error_frames']:.2f} frames/token,"
      f" validation mel L1 {val[0]['mel_l1']:.3f} -> {val[-1]['mel_l1']:.3f}")
for key in ["grad_norm", "learning_rate", "samples_per_second", "frames_per_second", "step_seconds_cv",
            "data_wait_fraction", "padding_fraction", "skipped_steps", "mel_l1", "duration", "forward_sum"]:
    assert key in last, key
PY
ok "loss, alignment and duration error"

events=$(ls "$WORK"/run/events/events.out.tfevents.*)
"$PY" "$ROOT/tests/reference/read_events.py" "$events" > "$WORK/events.jsonl" || fail "event file does not decode"
"$PY" - "$WORK/events.jsonl" "$WORK/run/metrics.jsonl" <<'PY' || fail "event scalars"
import json, math, sys
events = [json.loads(l) for l in open(sys.argv[1])]
scalars = {(e["tag"], e["step"]): e["value"] for e in events if "value" in e}
images = [e for e in events if "image" in e]
for row in map(json.loads, open(sys.argv[2])):
    for key, value in row.items():
        if key in ("step", "kind") or value is None:
            continue
        got = scalars[(f"{row['kind']}/{key}", row["step"])]
        assert math.isclose(got, value, rel_tol=1e-6, abs_tol=1e-30), (key, row["step"], got, value)
assert {e["tag"] for e in images} == {"mel", "alignment"}, images
assert len(images) == 6, len(images)
print(f"ok - {len(scalars)} scalars and {len(images)} images decoded, equal to metrics.jsonl")
PY
ok "event file"
[ "$(ls "$WORK"/run/images/*.png | wc -l)" -eq 6 ] || fail "expected 6 PNG files in images/"
ok "mel and alignment PNGs written at each validation"
kept=$(cd "$WORK/run/checkpoints" && ls | tr '\n' ' ')
want=$("$PY" - "$WORK/run/metrics.jsonl" <<'PY'
import json, sys
val = [r for r in map(json.loads, open(sys.argv[1])) if r["kind"] == "validation"]
best = min(val, key=lambda r: r["loss"])["step"]
print(" ".join(f"step-{s:08d}" for s in sorted({best, 120})) + " ")
PY
)
assert_eq "$kept" "$want" "keep_checkpoints=1 keeps the newest and the best by validation loss"
finish
