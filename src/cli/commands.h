#pragma once
// Each subcommand registers itself on the CLI11 app; main.cpp stays a thin dispatcher.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace myxtts::cli {

// Options every command that reads a config shares.
struct ConfigOptions {
  std::vector<std::string> paths;      // --config, in order (later files override earlier ones)
  std::vector<std::string> overrides;  // --set key=value
  void add_to(CLI::App& command);
};

// The chosen command's body, run by main after parsing.
using Action = std::function<int()>;

void add_preprocess_command(CLI::App& app, Action& action);
void add_inspect_command(CLI::App& app, Action& action);
void add_bench_command(CLI::App& app, Action& action);
void add_pipeline_bench(CLI::App& bench, Action& action);  // a subcommand of bench
void add_step_bench(CLI::App& bench, Action& action);      // a subcommand of bench
void add_version_command(CLI::App& app, Action& action);
void add_plan_command(CLI::App& app, Action& action);
void add_train_command(CLI::App& app, Action& action);
void add_synthesize_command(CLI::App& app, Action& action);

}  // namespace myxtts::cli
