#include "comm/bandwidth.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>

#include "comm/mpi_check.h"
#include "core/error.h"

namespace myxtts::comm {
namespace {
constexpr int kTagRaw = 7201;

int checked_count(size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX)) throw Error("raw bandwidth messages are limited to 2 GiB");
  return static_cast<int>(bytes);
}
}  // namespace

double raw_send_seconds(const std::vector<int>& peers, size_t bytes, int count, int buffers) {
  std::vector<std::vector<uint8_t>> rotation(buffers, std::vector<uint8_t>(bytes, 1));
  const int64_t shape[3] = {static_cast<int64_t>(bytes), count, buffers};
  for (int peer : peers) MYX_MPI(MPI_Send(shape, 3, MPI_INT64_T, peer, kTagRaw, MPI_COMM_WORLD));
  const auto start = std::chrono::steady_clock::now();
  // Windows of `buffers` non-blocking sends per peer, as osu_bw does: the transport's
  // pipelined bound, the same overlap the channel's slots allow.
  std::vector<MPI_Request> requests;
  for (int first = 0; first < count; first += buffers) {
    requests.clear();
    for (int i = first; i < std::min(count, first + buffers); ++i)
      for (int peer : peers) {
        requests.emplace_back();
        MYX_MPI(MPI_Isend(rotation[i - first].data(), checked_count(bytes), MPI_BYTE, peer, kTagRaw,
                          MPI_COMM_WORLD, &requests.back()));
      }
    MYX_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  }
  // The last receive has completed once the peers acknowledge; count that in.
  for (int peer : peers) {
    int ack = 0;
    MYX_MPI(MPI_Recv(&ack, 1, MPI_INT, peer, kTagRaw, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void raw_receive(int peer) {
  int64_t shape[3] = {0, 0, 1};
  MYX_MPI(MPI_Recv(shape, 3, MPI_INT64_T, peer, kTagRaw, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  const size_t bytes = static_cast<size_t>(shape[0]);
  const int count = static_cast<int>(shape[1]), buffers = static_cast<int>(shape[2]);
  std::vector<std::vector<uint8_t>> rotation(buffers, std::vector<uint8_t>(bytes));
  std::vector<MPI_Request> requests;
  for (int first = 0; first < count; first += buffers) {
    requests.clear();
    for (int i = first; i < std::min(count, first + buffers); ++i) {
      requests.emplace_back();
      MYX_MPI(MPI_Irecv(rotation[i - first].data(), checked_count(bytes), MPI_BYTE, peer, kTagRaw,
                        MPI_COMM_WORLD, &requests.back()));
    }
    MYX_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  }
  int ack = 1;
  MYX_MPI(MPI_Send(&ack, 1, MPI_INT, peer, kTagRaw, MPI_COMM_WORLD));
}

}  // namespace myxtts::comm
