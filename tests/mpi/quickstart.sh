#!/usr/bin/env bash
# The README's main job, reduced (40 utterances, 100 training steps; setup and build are what the
# test run already did): it finishes, its three wavs have the training sample rate, are not
# silent and last a plausible time for their text, and running it again resumes every stage
# instead of starting over.
source "$(dirname "$0")/../e2e/lib.sh"
export QUICKSTART_SKIP_SETUP=1 QUICKSTART_UTTERANCES=40 QUICKSTART_STEPS=100
bash "$ROOT/launch/quickstart.sh" "$WORK/qs" > "$WORK/qs.log" 2>&1 || { tail -40 "$WORK/qs.log"; fail "quick start"; }
ok "the reduced quick start finished"
"$PY" - "$WORK/qs/samples" "$WORK/qs/sentences.txt" <<'PY' || fail "samples"
import math, struct, sys, wave
texts = [l.strip() for l in open(sys.argv[2]) if l.strip()]
for i, text in enumerate(texts, 1):
    with wave.open(f"{sys.argv[1]}/{i:04d}.wav") as w:
        rate, n = w.getframerate(), w.getnframes()
        samples = struct.unpack(f"<{n}h", w.readframes(n))
    assert rate == 22050, rate
    rms = math.sqrt(sum(s * s for s in samples) / n) / 32768
    seconds, words = n / rate, len(text.split())
    assert rms > 1e-3, f"{i}: silent (rms {rms})"
    assert words / 7 <= seconds <= words / 1.5, f"{i}: {seconds:.2f} s for {words} words"
    print(f"ok - sample {i}: {seconds:.2f} s for {words} words, rms {rms:.3f}")
PY
ok "three samples at 22050 Hz, audible, plausible lengths"
bash "$ROOT/launch/quickstart.sh" "$WORK/qs" > "$WORK/qs2.log" 2>&1 || { tail -40 "$WORK/qs2.log"; fail "second run"; }
assert_contains "$(cat "$WORK/qs2.log")" "nothing to do" "a second run resumes training instead of starting over"
if grep -q "\[preprocess\]" "$WORK/qs2.log"; then fail "the second run preprocessed again"; fi
ok "and does not preprocess again"
finish
