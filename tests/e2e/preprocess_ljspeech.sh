#!/usr/bin/env bash
# Real 16 kHz speech in LJSpeech layout -> a 22 050 Hz cache whose frame counts follow
# n_frames = 1 + floor(round(n_samples * 22050 / 16000) / 256) (docs/cache-format.md).
source "$(dirname "$0")/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 12 16000 >/dev/null
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache" --set audio.trim_silence=false \
  --set data.val_count=2 >/dev/null 2>&1
"$PY" - "$WORK/cache/features.h5" "$WORK/corpus/wavs" <<'PY'
import sys, wave, h5py
cache, wavs = sys.argv[1], sys.argv[2]
with h5py.File(cache, "r") as f:
    assert f.attrs["format"] == "myxtts-cache", f.attrs["format"]
    assert f.attrs["complete"] == 1
    assert f.attrs["audio.sample_rate"] == "22050"
    ids = [s.decode() for s in f["index/id"][:]]
    assert len(ids) == 12, ids
    assert f["mel"].shape == (int(f["index/n_frames"][:].sum()), 80)
    assert int(f["index/split"][:].sum()) == 2
    for i, uid in enumerate(ids):
        with wave.open(f"{wavs}/{uid}.wav") as w:
            assert w.getframerate() == 16000
            n = w.getnframes()
        expected = 1 + round(n * 22050 / 16000) // 256
        got = int(f["index/n_frames"][i])
        assert got == expected, f"{uid}: {got} frames, formula gives {expected}"
        assert abs(f["index/seconds"][i] - n / 16000) < 1e-3
        assert f["index/n_tokens"][i] == len(f["index/symbols"][i].decode())
print("frame counts match the formula for", len(ids), "utterances")
PY
ok "frame counts and layout checked with h5py"
out=$("$MYXTTS" inspect "$WORK/cache")
assert_contains "$out" "utterances   12 (10 train, 2 validation)" "inspect counts"
assert_contains "$out" "audio.sample_rate        22050" "inspect parameters"
assert_contains "$out" "frame lengths" "inspect histogram"
[ -s "$WORK/cache/config.yaml" ] && [ -s "$WORK/cache/logs/rank-00000.log" ] && [ ! -e "$WORK/cache/work" ] \
  || fail "config.yaml and logs next to the cache, work/ removed"
ok "resolved config and logs written next to the cache"
finish
