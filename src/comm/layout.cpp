#include "comm/layout.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "comm/gpu_info.h"
#include "comm/world.h"
#include "core/error.h"

namespace myxtts::comm {

const char* role_name(Role role) { return role == Role::kProducer ? "producer" : "trainer"; }
const char* transport_name(Transport t) { return t == Transport::kNccl ? "nccl" : "mpi"; }

std::vector<int> emulated_nodes(int world_size, int nodes) {
  if (nodes < 1 || nodes > world_size || world_size % nodes != 0)
    throw Error(fmt::format("layout.emulate_nodes = {} must divide the {} ranks into equal nodes",
                            nodes, world_size));
  std::vector<int> node_of_rank(world_size);
  for (int r = 0; r < world_size; ++r) node_of_rank[r] = r / (world_size / nodes);
  return node_of_rank;
}

Layout plan_layout(const std::vector<int>& node_of_rank, int gpus_per_node, const LayoutConfig& config) {
  Layout layout;
  layout.gpus_per_node = gpus_per_node;
  std::map<int, std::vector<int>> ranks_of_node;
  for (int r = 0; r < static_cast<int>(node_of_rank.size()); ++r) ranks_of_node[node_of_rank[r]].push_back(r);
  layout.nodes = static_cast<int>(ranks_of_node.size());
  layout.ranks.resize(node_of_rank.size());

  const int producers = config.producers_per_node;
  const bool producer_on_gpu =
      config.producer_device == "gpu" || (config.producer_device == "auto" && gpus_per_node >= 2);
  if (config.producer_device == "gpu" && gpus_per_node < producers + 1)
    throw Error(fmt::format("layout.producer_device = gpu needs at least {} GPUs per node (one per "
                            "producer and one for training) but the node has {}; use "
                            "layout.producer_device=auto or cpu",
                            producers + 1, gpus_per_node));
  const int trainer_gpus = gpus_per_node - (producer_on_gpu ? producers : 0);

  for (const auto& [node, ranks] : ranks_of_node) {
    const int trainers = static_cast<int>(ranks.size()) - producers;
    if (trainers < 1)
      throw Error(fmt::format("node {} has {} rank(s) but layout.producers_per_node = {} needs at "
                              "least {} (producers + one trainer); launch more ranks per node or "
                              "lower layout.producers_per_node",
                              node, ranks.size(), producers, producers + 1));
    if (gpus_per_node > 0 && trainers > trainer_gpus)
      throw Error(fmt::format("node {} has {} trainer rank(s) but only {} GPU(s) left for training "
                              "({} per node{}); launch at most {} ranks per node",
                              node, trainers, trainer_gpus, gpus_per_node,
                              producer_on_gpu ? ", producers on their own GPUs" : "",
                              producers + trainer_gpus));
    for (int local = 0; local < static_cast<int>(ranks.size()); ++local) {
      RankPlan& plan = layout.ranks[ranks[local]];
      plan.rank = ranks[local];
      plan.node = node;
      plan.local_rank = local;
      plan.role = local < producers ? Role::kProducer : Role::kTrainer;
      if (plan.role == Role::kProducer) {
        plan.gpu = producer_on_gpu ? local : -1;
        layout.producers.push_back(plan.rank);
      } else {
        const int t = local - producers;
        plan.gpu = gpus_per_node > 0 ? gpus_per_node - trainer_gpus + t : -1;
        plan.producer = ranks[t % producers];
        layout.trainers.push_back(plan.rank);
      }
      plan.transport = producer_on_gpu ? Transport::kNccl : Transport::kMpi;
    }
    for (int local = producers; local < static_cast<int>(ranks.size()); ++local)
      layout.ranks[ranks[(local - producers) % producers]].trainers.push_back(ranks[local]);
  }
  std::sort(layout.trainers.begin(), layout.trainers.end());
  std::sort(layout.producers.begin(), layout.producers.end());
  for (size_t i = 0; i < layout.trainers.size(); ++i)
    layout.ranks[layout.trainers[i]].trainer_index = static_cast<int>(i);
  return layout;
}

Layout job_layout(const LayoutConfig& config) {
  const std::vector<int> nodes =
      config.emulate_nodes > 0 ? emulated_nodes(size(), config.emulate_nodes) : node_of_each_rank();
  return plan_layout(nodes, config.gpus_per_node >= 0 ? config.gpus_per_node : gpu_count(), config);
}

std::string describe(const Layout& layout) {
  std::string out = fmt::format(
      "{} node(s), {} rank(s): {} producer(s), {} trainer(s); {} GPU(s) per node\n", layout.nodes,
      layout.ranks.size(), layout.producers.size(), layout.trainers.size(), layout.gpus_per_node);
  out += fmt::format("{:>5} {:>5} {:>6}  {:<9} {:<7} {:<9} {}\n", "rank", "node", "local", "role",
                     "device", "transport", "peers");
  for (const RankPlan& p : layout.ranks) {
    std::string device = p.gpu < 0 ? "cpu" : fmt::format("cuda:{}", p.gpu);
    std::string peers = p.role == Role::kProducer
                            ? fmt::format("feeds {}", fmt::join(p.trainers, ","))
                            : fmt::format("fed by {} (trainer {})", p.producer, p.trainer_index);
    out += fmt::format("{:>5} {:>5} {:>6}  {:<9} {:<7} {:<9} {}\n", p.rank, p.node, p.local_rank,
                       role_name(p.role), device, transport_name(p.transport), peers);
  }
  return out;
}

}  // namespace myxtts::comm
