#pragma once
// The job's process group as a few free functions (MPI underneath; a plain single-process run
// is a world of one). Nothing outside src/comm/ includes MPI, CUDA or NCCL headers.
#include <cstdint>
#include <string>
#include <vector>

namespace myxtts::comm {

void init(int* argc, char*** argv);
void finalize();
bool initialized();

int rank();
int size();
// Ranks sharing this node (MPI_COMM_TYPE_SHARED).
int local_size();

void barrier();
// Rank 0 gets every rank's values, concatenated in rank order (others get an empty vector).
std::vector<double> gather_to_root(const std::vector<double>& mine);
// Node of every rank (0-based, numbered in order of each node's lowest rank).
std::vector<int> node_of_each_rank();
// Ends every rank of the job now (after a fatal error on one of them): never a hang.
[[noreturn]] void abort(int exit_code);

// Versions of MPI, CUDA and NCCL as built and as found at run time, for `myxtts version`.
std::string library_report();

}  // namespace myxtts::comm
