#pragma once
// Who does what: per node, the first layout.producers_per_node ranks produce batches and the
// others train; devices and transports follow from the GPUs a node has. The same pure
// planning function serves `myxtts plan` (no launch) and the training job (real MPI world).
#include <string>
#include <vector>

#include "core/config.h"

namespace myxtts::comm {

enum class Role { kProducer, kTrainer };
enum class Transport { kMpi, kNccl };

struct RankPlan {
  int rank = 0;
  int node = 0;
  int local_rank = 0;
  Role role = Role::kTrainer;
  int gpu = -1;  // CUDA device index, -1 = CPU
  Transport transport = Transport::kMpi;  // between this rank and its producer/trainers
  int producer = -1;                      // trainers: the rank that feeds them
  int trainer_index = -1;                 // trainers: position among all trainers
  std::vector<int> trainers;              // producers: the ranks they feed
};

struct Layout {
  std::vector<RankPlan> ranks;  // indexed by rank
  std::vector<int> producers, trainers;
  int nodes = 0;
  int gpus_per_node = 0;
};

// node_of_rank[r] = node index of rank r (0-based, every node non-empty). Throws Error naming
// the setting to change when the ranks cannot be laid out (too few ranks or GPUs on a node).
Layout plan_layout(const std::vector<int>& node_of_rank, int gpus_per_node, const LayoutConfig& config);
// Contiguous blocks of ranks, as `mpirun --map-by node` would not but a host file with equal
// slots does: ranks [0, n/nodes) on node 0, and so on.
std::vector<int> emulated_nodes(int world_size, int nodes);
// The layout of the running job (collective): real nodes or layout.emulate_nodes, and
// layout.gpus_per_node or the GPUs this process sees.
Layout job_layout(const LayoutConfig& config);
// The rank table `myxtts plan` prints.
std::string describe(const Layout& layout);
const char* role_name(Role role);
const char* transport_name(Transport transport);

}  // namespace myxtts::comm
