#pragma once
// The job's process group as a few free functions (MPI underneath; a plain single-process run
// is a world of one). Nothing outside src/comm/ includes MPI, CUDA or NCCL headers.
#include <cstdint>
#include <string>

namespace myxtts::comm {

void init(int* argc, char*** argv);
void finalize();
bool initialized();

int rank();
int size();
// Ranks sharing this node (MPI_COMM_TYPE_SHARED) and this rank's index among them.
int local_rank();
int local_size();
std::string node_name();

void barrier();
// True when `mine` is true on every rank: lets all ranks agree to stop together.
bool all_true(bool mine);
int64_t sum(int64_t mine);
// Ends every rank of the job now (after a fatal error on one of them): never a hang.
[[noreturn]] void abort(int exit_code);

// Versions of MPI, CUDA and NCCL as built and as found at run time, for `myxtts version`.
std::string library_report();

}  // namespace myxtts::comm
