#!/usr/bin/env bash
# A TSV manifest with speakers and languages (English and Persian), through both frontends.
source "$(dirname "$0")/lib.sh"
c=$WORK/corpus
mkdir -p "$c/audio"
say() { espeak-ng -v "$1" -w "$c/audio/$2.tmp.wav" "$3" && sox -V1 "$c/audio/$2.tmp.wav" -r 24000 -c 2 "$c/audio/$2.wav" && rm "$c/audio/$2.tmp.wav"; }
say en en1 "Good morning, how are you today?"
say en en2 "The weather is lovely this afternoon."
say fa fa1 "من می‌خواهم به خانه بروم."
say fa fa2 "كتاب را روی میز گذاشتم."
printf 'path\ttext\tspeaker\tlanguage\n' > "$c/manifest.tsv"
printf 'audio/en1.wav\tGood morning, how are you today?\talice\ten\n' >> "$c/manifest.tsv"
printf 'audio/en2.wav\tThe weather is lovely this afternoon.\tbob\ten\n' >> "$c/manifest.tsv"
printf 'audio/fa1.wav\tمن می‌خواهم به خانه بروم.\tsara\tfa\n' >> "$c/manifest.tsv"
printf 'audio/fa2.wav\tكتاب را روی میز گذاشتم.\tsara\tfa\n' >> "$c/manifest.tsv"
printf 'audio/en1.wav\tSame audio, unknown language.\talice\txx\n' >> "$c/manifest.tsv"

"$MYXTTS" preprocess -i "$c" -o "$WORK/chars" >/dev/null 2>&1
out=$("$MYXTTS" inspect "$WORK/chars")
assert_contains "$out" "utterances   4" "all four kept"
assert_contains "$out" "unknown_language         1" "an unknown language is a reject"
assert_contains "$out" "speakers     3" "three speakers"
assert_contains "$out" "sara                     2 utterances" "speaker counts"
assert_contains "$out" "fa                       2 utterances" "language counts"
"$PY" - "$WORK/chars/features.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    symbols = [s.decode() for s in f["index/symbols"][:]]
    vocab = [s.decode() for s in f["vocabulary/symbols"][:]]
    assert vocab[:4] == ["<pad>", "<bos>", "<eos>", "<unk>"], vocab[:4]
    assert "\u200c" in vocab, "ZWNJ must survive as a symbol"
    assert "\u0643" not in "".join(symbols) and "\u06a9" in symbols[3], symbols[3]  # Arabic kaf unified
    assert symbols[0] == "good morning, how are you today?", symbols[0]
    assert [s.decode() for s in f["languages/names"][:]] == ["en", "fa"]
    assert list(f["index/language"][:]) == [0, 0, 1, 1]
PY
ok "Persian text normalised (ZWNJ kept, Arabic kaf unified), vocabulary reserved ids first"

"$MYXTTS" preprocess -i "$c" -o "$WORK/phonemes" --set text.frontend=phonemes >/dev/null 2>&1
"$PY" - "$WORK/phonemes/features.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["text.frontend"] == "phonemes"
    symbols = [s.decode() for s in f["index/symbols"][:]]
    assert all(symbols), symbols
    assert any(c in "".join(symbols) for c in "ˈəɑ"), symbols  # IPA from espeak-ng
PY
ok "espeak-ng phoneme frontend selectable"

# A fixed symbol inventory: symbols outside it become <unk>, every occurrence counted.
out=$("$MYXTTS" preprocess -i "$c" -o "$WORK/fixed" --set "text.symbols=abcdefghijklmnopqrstuvwxyz " 2>&1)
expected=$("$PY" - "$WORK/fixed/features.h5" <<'PY'
import sys, h5py
allowed = set("abcdefghijklmnopqrstuvwxyz ")
with h5py.File(sys.argv[1], "r") as f:
    missing = sum(1 for s in f["index/symbols"][:] for ch in s.decode() if ch not in allowed)
    assert missing > 10, missing
    assert f.attrs["unknown_symbols"] == missing, (f.attrs["unknown_symbols"], missing)
    assert int((f["tokens"][:] == 3).sum()) == missing
    print(missing)
PY
)
assert_contains "$out" "$expected symbol(s) outside text.symbols were mapped to <unk>" "unknown symbols counted over the whole corpus"
finish
