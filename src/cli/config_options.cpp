#include "cli/commands.h"

namespace myxtts::cli {

void ConfigOptions::add_to(CLI::App& command) {
  command.add_option("-c,--config", paths,
                     "YAML config (configs/); repeat it to layer files, e.g. a data config then a model "
                     "preset; defaults apply to keys none sets")
      ->check(CLI::ExistingFile);
  command.add_option("--set", overrides, "override one key, e.g. --set audio.sample_rate=16000")
      ->type_name("KEY=VALUE");
}

}  // namespace myxtts::cli
