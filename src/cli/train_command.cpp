// `myxtts train`: run under mpirun; producers and trainers take their roles from the layout.
#include "cli/commands.h"
#include "core/config.h"
#include "train/job.h"

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

}  // namespace myxtts::cli
