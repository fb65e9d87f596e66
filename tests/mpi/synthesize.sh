#!/usr/bin/env bash
# Synthesis from a briefly trained checkpoint (1 producer + 2 trainers, 100 steps): the wav has the
# training sample rate, is not silent, and lasts a plausible time for its text; two reference
# recordings give measurably different audio for the same text; --text-file writes one wav per
# line; bad input (empty text, unknown symbols, missing reference, unknown speaker) fails with a
# message naming the problem.
source "$(dirname "$0")/../e2e/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 24 16000 >/dev/null
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache" --set data.val_count=3 >/dev/null 2>&1
"${MPIRUN[@]}" -np 3 "$MYXTTS" train --config "$ROOT/configs/tiny.yaml" --set train.cache="$WORK/cache" \
  --set train.output_dir="$WORK/run" --set train.steps=100 --set batch.max_frames=1600 > "$WORK/train.log" 2>&1 \
  || { cat "$WORK/train.log"; fail "training"; }
text="The quick brown fox jumps over the lazy dog."
wavs=("$WORK"/corpus/wavs/*.wav)
"$MYXTTS" synthesize --checkpoint "$WORK/run" --text "$text" --out "$WORK/out/a.wav" --reference "${wavs[0]}" \
  > "$WORK/a.log" 2>&1 || { cat "$WORK/a.log"; fail "synthesize a"; }
"$MYXTTS" synthesize --checkpoint "$WORK/run" --text "$text" --out "$WORK/out/b.wav" --reference "${wavs[-1]}" \
  > "$WORK/b.log" 2>&1 || { cat "$WORK/b.log"; fail "synthesize b"; }
ok "synthesised with two reference recordings"
for f in a.mel.png a.alignment.png; do [ -s "$WORK/out/$f" ] || fail "missing $f next to the wav"; done
ok "mel and alignment PNGs next to the wav"
"$PY" - "$WORK/out/a.wav" "$WORK/out/b.wav" "$text" <<'PY' || fail "wav checks"
import sys, wave, struct, math
def read(path):
    with wave.open(path) as w:
        rate, n = w.getframerate(), w.getnframes()
        assert w.getnchannels() == 1, path
        raw = w.readframes(n)
        width = w.getsampwidth()
    assert width == 2, f"{path}: {width}-byte samples"
    return rate, [s / 32768 for s in struct.unpack(f"<{n}h", raw)]
rate_a, a = read(sys.argv[1]); rate_b, b = read(sys.argv[2])
assert rate_a == rate_b == 22050, (rate_a, rate_b)
rms = math.sqrt(sum(x * x for x in a) / len(a))
assert rms > 1e-3, f"silent: rms {rms}"
seconds, words = len(a) / rate_a, len(sys.argv[3].split())
# Plausible speech runs 1.5 to 7 words per second (short training under-predicts durations a little).
assert words / 7 <= seconds <= words / 1.5, f"{seconds:.2f} s for {words} words"
n = min(len(a), len(b))
difference = math.sqrt(sum((x - y) ** 2 for x, y in zip(a[:n], b[:n])) / n) / rms
assert len(a) != len(b) or difference > 0.05, f"references changed the audio by only {difference:.3f} of its rms"
print(f"ok - 22050 Hz, rms {rms:.3f}, {seconds:.2f} s for {words} words; the two voices differ "
      f"({len(a)} vs {len(b)} samples, rms difference {difference:.2f})")
PY
ok "wav checks"
printf 'Hello there.\n\nSecond line here.\n' > "$WORK/lines.txt"
"$MYXTTS" synthesize --checkpoint "$WORK/run" --text-file "$WORK/lines.txt" --out-dir "$WORK/many" > "$WORK/many.log" 2>&1 \
  || { cat "$WORK/many.log"; fail "--text-file"; }
assert_eq "$(cd "$WORK/many" && ls *.wav | tr '\n' ' ')" "0001.wav 0003.wav " "--text-file writes one wav per non-empty line"
expect_failure "empty text" "$MYXTTS" synthesize --checkpoint "$WORK/run" --text "  " --out "$WORK/x.wav"
assert_contains "$OUT" "empty" "the error says the text is empty"
expect_failure "unknown symbols" "$MYXTTS" synthesize --checkpoint "$WORK/run" --text "snow ☃ man" --out "$WORK/x.wav"
assert_contains "$OUT" "☃" "the error names the unknown symbol"
expect_failure "missing reference" "$MYXTTS" synthesize --checkpoint "$WORK/run" --text "hello" --out "$WORK/x.wav" --reference "$WORK/none.wav"
assert_contains "$OUT" "none.wav" "the error names the missing reference"
expect_failure "unknown speaker" "$MYXTTS" synthesize --checkpoint "$WORK/run" --text "hello" --out "$WORK/x.wav" --speaker nobody
assert_contains "$OUT" "nobody" "the error names the speaker"
[ ! -e "$WORK/x.wav" ] || fail "a failed synthesis must not leave a wav"
finish
