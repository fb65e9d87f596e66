// myxtts: one binary, one subcommand per job. Rank-aware from the first line: it runs the same
// under `mpirun -np N` and alone.
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "core/log.h"

int main(int argc, char** argv) {
  using namespace myxtts;
  try {
    comm::init(&argc, &argv);
  } catch (const std::exception& e) {
    fprintf(stderr, "myxtts: cannot start MPI: %s\n", e.what());
    return 1;
  }
  bool verbose = false;
  CLI::App app{"MyXTTS: distributed text-to-speech training"};
  app.require_subcommand(1);
  app.add_flag("-v,--verbose", verbose, "debug output on the console");
  cli::Action action;
  cli::add_preprocess_command(app, action);
  cli::add_inspect_command(app, action);
  cli::add_plan_command(app, action);
  cli::add_train_command(app, action);
  cli::add_synthesize_command(app, action);
  cli::add_bench_command(app, action);
  cli::add_version_command(app, action);

  int status = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    status = comm::rank() == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
    comm::finalize();
    return status;
  }
  log::init(comm::rank(), comm::size(), verbose);
  install_interrupt_handlers();
  try {
    status = action ? action() : 0;
  } catch (const std::exception& e) {
    log::get("myxtts")->error("{}", e.what());
    spdlog::shutdown();
    comm::abort(1);  // takes the other ranks down with it: never a hang
  }
  comm::finalize();
  return status;
}
