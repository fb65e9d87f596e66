#include <H5public.h>
#include <fmt/format.h>
#include <sndfile.h>
#include <soxr.h>
#include <torch/version.h>

#include "cli/commands.h"
#include "comm/world.h"

namespace myxtts::cli {

void add_version_command(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("version", "print versions of MyXTTS and its libraries");
  command->callback([&action] {
    action = [] {
      if (comm::rank() != 0) return 0;
      unsigned h5_major = 0, h5_minor = 0, h5_release = 0;
      H5get_libversion(&h5_major, &h5_minor, &h5_release);
      fmt::print("myxtts {}\nlibtorch: {}\nHDF5: {}.{}.{}\nlibsndfile: {}\nlibsoxr: {}\n{}\n",
                 MYXTTS_VERSION, TORCH_VERSION, h5_major, h5_minor, h5_release,
                 sf_version_string(), soxr_version(), comm::library_report());
      return 0;
    };
  });
}

}  // namespace myxtts::cli
