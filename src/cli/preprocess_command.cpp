#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.h"
#include "comm/world.h"
#include "core/fs.h"
#include "core/log.h"
#include "data/preprocess.h"

namespace myxtts::cli {

void add_preprocess_command(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("preprocess", "turn a speech corpus into an HDF5 feature cache");
  auto config = std::make_shared<ConfigOptions>();
  auto options = std::make_shared<data::PreprocessOptions>();
  auto format = std::make_shared<std::string>();
  auto workers = std::make_shared<int>(-1);
  config->add_to(*command);
  command->add_option("-i,--input", options->input,
                      "corpus directory (metadata.csv + wavs/, or manifest.tsv) or listing file")
      ->required();
  command->add_option("-o,--output", options->output,
                      "cache directory to create (features.h5, config.yaml, rejects.tsv, logs/)")
      ->required();
  command->add_option("--format", *format, "corpus layout (default: data.format)")
      ->check(CLI::IsMember({"auto", "ljspeech", "manifest"}));
  command->add_option("--workers", *workers, "threads per rank (default: preprocess.workers)")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--overwrite", options->overwrite, "rebuild an existing cache from scratch");
  command->callback([&action, config, options, format, workers] {
    action = [config, options, format, workers] {
      std::vector<std::string> overrides = config->overrides;
      if (!format->empty()) overrides.push_back("data.format=" + *format);
      if (*workers >= 0) overrides.push_back(fmt::format("preprocess.workers={}", *workers));
      Config cfg = load_config(config->paths, overrides);
      data::check_inputs(cfg, *options);
      ensure_writable_directory(options->output, "output directory");
      log::attach_directory(data::log_directory(options->output));
      auto logger = log::get("preprocess");
      if (comm::rank() == 0)
        logger->info("{} rank(s), {} on this node", comm::size(), comm::local_size());
      data::PreprocessSummary s = data::preprocess(cfg, *options);
      if (comm::rank() != 0) return 0;
      logger->info("done in {:.1f} s: {} utterances kept ({:.2f} h of audio), {} rejected",
                   s.wall_seconds, s.kept, s.audio_hours, s.rejected);
      for (const auto& [reason, count] : s.rejects_by_reason)
        logger->info("  rejected {:>6}  {}", count, reason);
      if (s.unknown_symbols > 0)
        logger->warn("{} symbol(s) outside text.symbols were mapped to <unk>", s.unknown_symbols);
      logger->info("cache: {}/features.h5 (rejects listed in rejects.tsv)", options->output);
      return 0;
    };
  });
}

}  // namespace myxtts::cli
