#!/usr/bin/env bash
# Producer -> trainer streaming under mpirun: every training utterance of an epoch delivered
# exactly once (duplicates only by the equal-count rule), payload bytes equal to the cache's
# (--verify: each trainer re-assembles every batch from the cache and compares), the same
# sequence for the same seed, and a resumed cursor continuing exactly where it stopped.
source "$(dirname "$0")/../e2e/lib.sh"
"$ROOT/launch/make_corpus.sh" "$WORK/corpus" 40 16000 >/dev/null
"$MYXTTS" preprocess -i "$WORK/corpus" -o "$WORK/cache" --set data.val_count=4 >/dev/null 2>&1
bench=(bench pipeline --cache "$WORK/cache" --set batch.max_frames=1600 --set batch.pool_batches=2 --rounds 3)

check_exactly_once() {  # record dir, epochs
  "$PY" - "$WORK/cache/features.h5" "$1" "$2" <<'PY'
import collections, glob, sys, h5py
cache, record, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3])
with h5py.File(cache, "r") as f:
    train = {i for i, s in enumerate(f["index/split"][:]) if s == 0}
steps = collections.defaultdict(list)  # (epoch, step) -> batches
for path in sorted(glob.glob(f"{record}/trainer-*.txt")):
    for line in open(path):
        epoch, step, ids = line.split()
        steps[(int(epoch), int(step))].append(tuple(int(i) for i in ids.split(",")))
trainers = len(glob.glob(f"{record}/trainer-*.txt"))
for epoch in range(epochs):
    seen = collections.Counter()
    duplicates = 0
    for (e, s), batches in steps.items():
        if e != epoch:
            continue
        assert len(batches) == trainers, f"step {s}: {len(batches)} batches for {trainers} trainers"
        unique = set(batches)
        duplicates += len(batches) - len(unique)
        for b in unique:
            seen.update(b)
    assert set(seen) == train, f"epoch {epoch}: missing {sorted(train - set(seen))}, extra {sorted(set(seen) - train)}"
    assert all(c == 1 for c in seen.values()), f"epoch {epoch}: repeated {[i for i, c in seen.items() if c > 1]}"
    assert duplicates < trainers, f"epoch {epoch}: {duplicates} duplicated batches"
print("ok")
PY
}

out=$("${MPIRUN[@]}" -np 3 "$MYXTTS" "${bench[@]}" --epochs 2 --verify --record "$WORK/a" --log-dir "$WORK/logs" 2>&1) \
  || fail "1 producer + 2 trainers: $out"
grep -q "stream ended: .* batches in .* s, waited for data" "$WORK/logs/rank-00001.log" || fail "trainer logs its data wait"
ok "trainers log their data-wait share"
assert_contains "$out" "every batch verified against the cache" "1+2: every payload equals the cache's bytes"
[ "$(check_exactly_once "$WORK/a" 2)" == ok ] || fail "1+2: exactly-once delivery"
ok "1+2: every training utterance delivered exactly once per epoch"

"${MPIRUN[@]}" -np 3 "$MYXTTS" "${bench[@]}" --epochs 2 --record "$WORK/b" >/dev/null 2>&1
diff -r "$WORK/a" "$WORK/b" >/dev/null || fail "the same seed must give the same batch sequence"
ok "same seed, same batch sequence"
"${MPIRUN[@]}" -np 3 "$MYXTTS" "${bench[@]}" --epochs 1 --record "$WORK/c" --set batch.seed=99 >/dev/null 2>&1
diff -q "$WORK/c/trainer-0.txt" <(head -n "$(wc -l < "$WORK/c/trainer-0.txt")" "$WORK/a/trainer-0.txt") >/dev/null \
  && fail "another seed must give another order"
ok "another seed, another order"

"${MPIRUN[@]}" -np 3 "$MYXTTS" "${bench[@]}" --start-epoch 1 --start-step 2 --epochs 1 --verify --record "$WORK/r" >/dev/null 2>&1 \
  || fail "resumed stream failed"
[ "$(awk '$1 == 1' "$WORK/a/trainer-0.txt" | wc -l)" -ge 4 ] || fail "the test needs 4+ steps per epoch"
for t in 0 1; do
  diff <(awk '$1 == 1 && $2 >= 2' "$WORK/a/trainer-$t.txt") "$WORK/r/trainer-$t.txt" >/dev/null \
    || fail "trainer $t: the resumed cursor must continue exactly where the full run was"
done
ok "a resumed cursor (epoch 1, step 2) continues exactly"

"${MPIRUN[@]}" -np 3 "$MYXTTS" "${bench[@]}" --split validation --verify --record "$WORK/v" >/dev/null 2>&1 \
  || fail "validation stream failed"
got=$(cut -d' ' -f3 "$WORK"/v/trainer-*.txt | tr ',' '\n' | sort -un | tr '\n' ' ')
want=$("$PY" -c "import h5py,sys; f=h5py.File(sys.argv[1]); print(' '.join(str(i) for i, s in enumerate(f['index/split'][:]) if s == 1) + ' ')" "$WORK/cache/features.h5")
assert_eq "$got" "$want" "the validation split is served the same way"

out=$("${MPIRUN[@]}" -np 4 "$MYXTTS" "${bench[@]}" --set layout.emulate_nodes=2 --epochs 2 --verify --record "$WORK/n" 2>&1) \
  || fail "2 nodes x (1+1): $out"
assert_contains "$out" "2 node(s), 4 rank(s): 2 producer(s), 2 trainer(s)" "2 emulated nodes, one producer each"
[ "$(check_exactly_once "$WORK/n" 2)" == ok ] || fail "2 nodes: exactly-once delivery"
ok "2 nodes x (1+1): every training utterance delivered exactly once per epoch"
finish
