#!/usr/bin/env bash
# `myxtts plan` prints the layout a job would get, without launching it.
source "$(dirname "$0")/lib.sh"
out=$("$MYXTTS" plan --np 2 --gpus-per-node 1)
assert_contains "$out" "    1     0      1  trainer   cuda:0  mpi       fed by 0 (trainer 0)" "1 GPU: CPU producer feeds a GPU trainer over MPI"
out=$("$MYXTTS" plan --np 2 --gpus-per-node 2)
assert_contains "$out" "    0     0      0  producer  cuda:0  nccl      feeds 1" "2 GPUs: producer on GPU:0 over NCCL"
out=$("$MYXTTS" plan --np 8 --gpus-per-node 8)
assert_contains "$out" "1 node(s), 8 rank(s): 1 producer(s), 7 trainer(s); 8 GPU(s) per node" "8 GPUs: summary"
assert_contains "$out" "    7     0      7  trainer   cuda:7  nccl      fed by 0 (trainer 6)" "8 GPUs: last trainer"
out=$("$MYXTTS" plan --np 6 --nodes 2 --gpus-per-node 0)
assert_contains "$out" "    3     1      0  producer  cpu     mpi       feeds 4,5" "multi-node: one producer per node"
out=$("$MYXTTS" plan --np 4 --set layout.emulate_nodes=2 --gpus-per-node 0)
assert_contains "$out" "2 node(s), 4 rank(s): 2 producer(s), 2 trainer(s)" "emulated nodes from the config"
expect_failure "too many ranks for the GPUs" "$MYXTTS" plan --np 9 --gpus-per-node 8
assert_contains "$OUT" "launch at most 8 ranks per node" "the error says what to change"
finish
