#!/usr/bin/env bash
# Every kind of bad input is rejected with its reason, counted and stored; the run goes on.
source "$(dirname "$0")/lib.sh"
c=$WORK/corpus
mkdir -p "$c/wavs"
tone() { sox -V1 -n -r 16000 -b 16 "$c/wavs/$1.wav" synth "$2" sine 300 vol 0.5; }
for id in good1 good2 dup trunc longtext; do tone $id 1.2; done
tone short 0.1
tone long 25
sox -V1 -n -r 16000 -b 16 "$c/wavs/silent.wav" trim 0 1.0
head -c 4000 /dev/urandom > "$c/wavs/corrupt.wav"
: > "$c/wavs/empty.wav"
truncate -s 20000 "$c/wavs/trunc.wav"
# 32-bit float WAV with one NaN sample (sox cannot write one, so by hand).
"$PY" - "$c/wavs/nan.wav" <<'PY'
import struct, sys, numpy as np
x = (0.3 * np.sin(np.arange(16000) * 0.05)).astype("<f4")
x[500] = np.nan
data = x.tobytes()
fmt = struct.pack("<HHIIHH", 3, 1, 16000, 64000, 4, 32)
with open(sys.argv[1], "wb") as f:
    f.write(b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(data)) + b"WAVE")
    f.write(b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data)
PY
long_text=$(printf 'word %.0s' $(seq 1 200))
{
  printf '\xEF\xBB\xBFgood1|First good sentence.|First good sentence.\r\n'
  printf 'good2|Second good one with 42 apples.|\n'
  printf 'missing|This file does not exist.|\n'
  printf 'corrupt|Random bytes.|\n'
  printf 'empty|Zero bytes.|\n'
  printf 'trunc|Cut short.|\n'
  printf 'silent|Nothing to hear.|\n'
  printf 'short|Too short.|\n'
  printf 'long|Too long.|\n'
  printf 'emptytext|   |\n'
  printf 'only-one-field\n'
  printf 'x|y|z|w\n'
  printf 'badutf8|caf\xC3\x28|\n'
  printf 'good1|Duplicate id.|\n'
  printf '../../escape|Leaves the corpus.|\n'
  printf 'longtext|%s|\n' "$long_text"
  printf 'nan|Not a number inside.|\n'
  printf 'bad\xff|Invalid id bytes.|\n'
  printf 'tabbed|\x01\t\x02|\n'
} > "$c/metadata.csv"
out=$("$MYXTTS" preprocess -i "$c" -o "$WORK/cache" --set data.max_tokens=500 2>&1)
assert_contains "$out" "2 utterances kept" "the run goes on and keeps the good ones"
assert_contains "$out" "17 rejected" "every bad line and file is counted"
assert_contains "$out" "tolerated 1 CRLF line end(s) and a UTF-8 byte-order mark" "CRLF and BOM tolerated"
table=$(cut -f1,3 "$WORK/cache/rejects.tsv" | sort)
expected=$(sort <<'EOF2'
id	reason
missing	audio_missing
corrupt	audio_unreadable
empty	audio_empty
trunc	audio_truncated
silent	audio_silent
short	too_short
long	too_long
emptytext	text_empty
only-one-field	malformed_line
x	malformed_line
badutf8	invalid_utf8
good1	duplicate_id
../../escape	path_outside_corpus
longtext	text_too_long
nan	audio_nonfinite
bad\xFF	invalid_utf8
tabbed	text_empty
EOF2
)
assert_eq "$table" "$expected" "each reject carries its reason"
grep -q "metadata.csv:6" "$WORK/cache/rejects.tsv" || fail "reject details name the listing line"
ok "reject details name file and line"
"$PY" - "$WORK/cache/features.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    reasons = sorted(r.decode() for r in f["rejects/reason"][:])
    assert len(reasons) == 17, reasons
    ids = [r.decode() for r in f["rejects/id"][:]]  # every stored string is valid UTF-8
    assert [s.decode() for s in f["index/id"][:]] == ["good1", "good2"]
    assert "forty two" in f["index/symbols"][1].decode()
PY
ok "rejects stored in the cache"
out=$("$MYXTTS" inspect "$WORK/cache")
assert_contains "$out" "rejects      17" "inspect reports rejects"
[ "$(awk -F'\t' 'NF != 4' "$WORK/cache/rejects.tsv" | wc -l)" == 0 ] || fail "rejects.tsv rows have 4 columns"
ok "rejects.tsv fields are escaped (4 columns per row)"
assert_contains "$out" "audio_truncated          1" "inspect groups rejects by reason"
finish
