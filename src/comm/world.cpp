#include "comm/world.h"

#include <fmt/format.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "comm/gpu_info.h"
#include "comm/mpi_check.h"

namespace myxtts::comm {
std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return fmt::format("MPI error {}", code);
  return std::string(text, length);
}

namespace {

MPI_Comm g_local = MPI_COMM_NULL;
int g_rank = 0, g_size = 1, g_local_rank = 0, g_local_size = 1;

}  // namespace

void init(int* argc, char*** argv) {
  if (initialized()) return;
  int provided = 0;
  MYX_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided));
  MYX_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MYX_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
  MYX_MPI(MPI_Comm_size(MPI_COMM_WORLD, &g_size));
  MYX_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL,
                              &g_local));
  MYX_MPI(MPI_Comm_rank(g_local, &g_local_rank));
  MYX_MPI(MPI_Comm_size(g_local, &g_local_size));
}

void finalize() {
  int done = 0;
  MPI_Finalized(&done);
  if (done || !initialized()) return;
  if (g_local != MPI_COMM_NULL) MYX_MPI(MPI_Comm_free(&g_local));
  MYX_MPI(MPI_Finalize());
}

bool initialized() {
  int flag = 0;
  MPI_Initialized(&flag);
  return flag != 0;
}

int rank() { return g_rank; }
int size() { return g_size; }
int local_size() { return g_local_size; }

void barrier() {
  // Polling with sleeps instead of MPI_Barrier: Open MPI spins at 100 % CPU while it waits,
  // which would steal cores from the worker threads of ranks that are still busy.
  MPI_Request request;
  MYX_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &request));
  for (int done = 0;;) {
    MYX_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::vector<double> gather_to_root(const std::vector<double>& mine) {
  const int count = static_cast<int>(mine.size());
  std::vector<double> all(g_rank == 0 ? static_cast<size_t>(count) * g_size : 0);
  MYX_MPI(MPI_Gather(mine.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  return all;
}

std::vector<int> node_of_each_rank() {
  // A node is named by the lowest world rank on it.
  int leader = g_rank;
  MYX_MPI(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, g_local));
  std::vector<int> leaders(g_size);
  MYX_MPI(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, MPI_COMM_WORLD));
  std::vector<int> node(g_size), index_of_leader(g_size, -1);
  int nodes = 0;
  for (int r = 0; r < g_size; ++r) {
    if (index_of_leader[leaders[r]] < 0) index_of_leader[leaders[r]] = nodes++;
    node[r] = index_of_leader[leaders[r]];
  }
  return node;
}

void abort(int exit_code) {
  if (initialized() && g_size > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::exit(exit_code);
}

std::string library_report() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MYX_MPI(MPI_Get_library_version(version, &length));
  std::string mpi(version, length);
  mpi = mpi.substr(0, mpi.find_first_of(",\n"));
  return fmt::format("MPI: {}\n{}", mpi, gpu_report());
}

}  // namespace myxtts::comm
