#!/usr/bin/env bash
# Fatal problems stop before any work, non-zero, with a message naming the key or path;
# nothing already written is lost.
source "$(dirname "$0")/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 3 >/dev/null

expect_failure "unknown config key" "$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/c1" --set audio.hop_lenght=200
assert_contains "$OUT" "did you mean audio.hop_length" "unknown key is named with a suggestion"
printf 'audio:\n  n_mels: 1000\n' > "$WORK/bad.yaml"
expect_failure "out-of-range value" "$MYXTTS" preprocess -c "$WORK/bad.yaml" -i "$WORK/corpus" -o "$WORK/c1"
assert_contains "$OUT" "audio.n_mels = 1000 is out of range; allowed: 8 .. 512" "range error names key and range"
[ ! -e "$WORK/c1" ] || fail "a bad config must stop before creating the output"
ok "nothing created on config errors"

expect_failure "missing corpus" "$MYXTTS" preprocess -i "$WORK/nowhere" -o "$WORK/c2"
assert_contains "$OUT" "corpus input $WORK/nowhere does not exist" "missing input named"
[ ! -e "$WORK/c2" ] || fail "a missing corpus must stop before creating the output"
ok "nothing created when the corpus is missing"

mkdir -p "$WORK/empty" && : > "$WORK/empty/metadata.csv"
expect_failure "empty listing" "$MYXTTS" preprocess -i "$WORK/empty" -o "$WORK/c3"
assert_contains "$OUT" "lists no utterances" "empty listing named"

expect_failure "more mel bands than FFT bins" "$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/c4" \
  --set audio.n_fft=64 --set audio.win_length=64 --set audio.n_mels=128
assert_contains "$OUT" "audio.n_mels = 128 is too many for audio.n_fft = 64" "empty mel bands refused"
[ ! -e "$WORK/c3" ] && [ ! -e "$WORK/c4" ] || fail "input errors must stop before creating the output"
ok "nothing created on input errors"

expect_failure "negative --workers" "$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/c5" --workers -3

touch "$WORK/a-file"
expect_failure "unwritable output" "$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/a-file/cache"
assert_contains "$OUT" "output directory $WORK/a-file/cache cannot be created" "unwritable output named"

"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/done" >/dev/null 2>&1
before=$(md5sum < "$WORK/done/features.h5")
expect_failure "existing cache" "$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/done"
assert_contains "$OUT" "already exists; pass --overwrite" "existing cache protected"
assert_eq "$(md5sum < "$WORK/done/features.h5")" "$before" "existing cache untouched"

expect_failure "inspect of a truncated cache" bash -c "cp '$WORK/done/features.h5' '$WORK/t.h5' && truncate -s 4000 '$WORK/t.h5' && '$MYXTTS' inspect '$WORK/t.h5'"
assert_contains "$OUT" "run myxtts preprocess again" "truncated cache refused with advice"
finish
