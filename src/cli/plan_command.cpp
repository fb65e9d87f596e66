#include <fmt/format.h>

#include "cli/commands.h"
#include "comm/gpu_info.h"
#include "comm/layout.h"
#include "comm/world.h"

namespace myxtts::cli {

void add_plan_command(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("plan", "print the rank layout of a job without launching it");
  auto config = std::make_shared<ConfigOptions>();
  auto np = std::make_shared<int>(0);
  auto nodes = std::make_shared<int>(0);
  auto gpus = std::make_shared<int>(-1);
  config->add_to(*command);
  command->add_option("--np", *np, "total MPI ranks")->required()->check(CLI::PositiveNumber);
  command->add_option("--nodes", *nodes, "nodes, ranks split equally (default: layout.emulate_nodes or 1)")
      ->check(CLI::PositiveNumber);
  command->add_option("--gpus-per-node", *gpus,
                      "GPUs per node (default: layout.gpus_per_node, or those of this machine)")
      ->check(CLI::NonNegativeNumber);
  command->callback([&action, config, np, nodes, gpus] {
    action = [=] {
      if (comm::rank() != 0) return 0;
      Config cfg = load_config(config->paths, config->overrides);
      const int node_count = *nodes > 0 ? *nodes : std::max(1, cfg.layout.emulate_nodes);
      const int gpu_count = *gpus >= 0                      ? *gpus
                            : cfg.layout.gpus_per_node >= 0 ? cfg.layout.gpus_per_node
                                                            : comm::gpu_count();
      comm::Layout layout =
          comm::plan_layout(comm::emulated_nodes(*np, node_count), gpu_count, cfg.layout);
      fmt::print("{}", comm::describe(layout));
      return 0;
    };
  });
}

}  // namespace myxtts::cli
