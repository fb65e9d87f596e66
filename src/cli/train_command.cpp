// `myxtts train`: run under mpirun; producers and trainers take their roles from the layout.
#include "cli/commands.h"
#include "core/config.h"
#include "train/job.h"
#include "train/step_benchmark.h"

namespace myxtts::cli {

void add_train_command(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("train", "train the acoustic model (run under mpirun: producers + trainers)");
  auto config = std::make_shared<ConfigOptions>();
  auto resume = std::make_shared<std::string>();
  config->add_to(*command);
  command->add_option("--resume", *resume,
                      "auto: continue from the newest complete checkpoint of train.output_dir (or start); or a "
                      "checkpoint directory");
  command->callback([&action, config, resume] {
    action = [config, resume] {
      train::run_training(load_config(config->paths, config->overrides), *resume);
      return 0;
    };
  });
}

void add_step_bench(CLI::App& bench, Action& action) {
  auto* command = bench.add_subcommand("step", "training step time: full pipeline vs the resident-data bound (mpirun)");
  auto config = std::make_shared<ConfigOptions>();
  auto warmup = std::make_shared<int>(5), steps = std::make_shared<int>(30);
  config->add_to(*command);
  command->add_option("--warmup", *warmup, "steps before timing starts")->check(CLI::NonNegativeNumber);
  command->add_option("--steps", *steps, "timed steps")->check(CLI::PositiveNumber);
  command->callback([&action, config, warmup, steps] {
    action = [config, warmup, steps] {
      train::run_step_benchmark(load_config(config->paths, config->overrides), *warmup, *steps);
      return 0;
    };
  });
}

}  // namespace myxtts::cli
