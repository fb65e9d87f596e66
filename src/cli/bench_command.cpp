// `myxtts bench ...`: performance figures as ratios measured within one run
// (docs/performance.md records them with the commands that produced them).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <unistd.h>

#include "cli/commands.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/log.h"
#include "data/cache_reader.h"
#include "data/cache_writer.h"
#include "data/preprocess.h"
#include "data/synthetic_cache.h"

namespace myxtts::cli {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A scratch directory removed on every exit path.
struct ScratchDir {
  explicit ScratchDir(const std::string& tag)
      : path(fs::temp_directory_path() / fmt::format("myxtts-{}-{}", tag, ::getpid())) {
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
};

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Reads every file under `dir` once, so both contenders start with the same warm page cache.
void warm_page_cache(const std::string& dir) {
  std::vector<char> buffer(1 << 20);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      for (std::ifstream in(entry.path(), std::ios::binary); in.read(buffer.data(), buffer.size()) || in.gcount();) {
      }
}

// Runs a command and parses the "key=value" lines it prints.
std::map<std::string, std::string> run_reporting(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw Error(fmt::format("cannot start: {}", command));
  std::map<std::string, std::string> out;
  char line[4096];
  while (fgets(line, sizeof line, pipe)) {
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    size_t eq = s.find('=');
    if (eq != std::string::npos) out[s.substr(0, eq)] = s.substr(eq + 1);
  }
  int status = pclose(pipe);
  if (status != 0)
    throw Error(fmt::format("reference command failed (status {}): {}", status, command));
  return out;
}

int bench_preprocess(const ConfigOptions& config_options, const std::string& input, int workers,
                     const std::string& python, const std::string& reference_script) {
  if (comm::size() != 1)
    throw Error("bench preprocess compares one process against one process pool: run it without mpirun");
  auto logger = log::get("bench");
  Config config = load_config(config_options.paths, config_options.overrides);
  config.preprocess.workers = workers;
  ScratchDir scratch_dir("bench");
  const fs::path& scratch = scratch_dir.path;
  warm_page_cache(input);

  logger->info("reference: torchaudio pipeline with {} worker process(es)", workers);
  const std::string command = fmt::format(
      "{} {} --input {} --output {} --workers {} --sample-rate {} --n-fft {} --hop {} --win {} "
      "--n-mels {} --fmin {} --fmax {} --peak {}",
      shell_quote(python), shell_quote(reference_script), shell_quote(input),
      shell_quote((scratch / "reference").string()), workers,
      config.audio.sample_rate, config.audio.n_fft, config.audio.hop_length,
      config.audio.win_length, config.audio.n_mels, config.audio.fmin, config.audio.fmax,
      config.audio.peak_normalize);
  auto reference = run_reporting(command);
  const double reference_seconds = std::stod(reference.at("seconds"));
  const double audio_seconds = std::stod(reference.at("audio_seconds"));

  logger->info("myxtts preprocess with {} worker thread(s)", workers);
  data::PreprocessOptions options{input, (scratch / "cache").string(), true};
  auto start = Clock::now();
  data::PreprocessSummary summary = data::preprocess(config, options);
  const double ours_seconds = seconds_since(start);

  fmt::print("files               {} ({} kept by myxtts)\n", reference.at("files"), summary.kept);
  fmt::print("audio               {:.1f} s\n", audio_seconds);
  fmt::print("myxtts              {:.2f} s wall, {:.1f} audio s per s\n", ours_seconds,
             audio_seconds / ours_seconds);
  fmt::print("torchaudio ref.     {:.2f} s wall, {:.1f} audio s per s\n", reference_seconds,
             audio_seconds / reference_seconds);
  fmt::print("speed ratio         {:.2f}x (goal >= 3x)\n", reference_seconds / ours_seconds);
  return 0;
}

int bench_cache_open(int utterances, const std::vector<int>& frame_counts, int repeats) {
  auto logger = log::get("bench");
  Config config;
  ScratchDir scratch_dir("open");
  const fs::path& scratch = scratch_dir.path;
  std::vector<double> medians;
  fmt::print("{:>10} {:>8} {:>12} {:>14}\n", "utterances", "frames", "file MiB", "open+index ms");
  for (int frames : frame_counts) {
    const std::string path = (scratch / fmt::format("cache-{}.h5", frames)).string();
    logger->info("writing a synthetic cache: {} utterances x {} frames", utterances, frames);
    data::write_synthetic_cache(path, config, utterances, frames);
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
      auto start = Clock::now();
      data::CacheReader reader(path);
      times.push_back(seconds_since(start) * 1000.0);
      if (reader.index().size() != static_cast<size_t>(utterances))
        throw Error("bench cache-open: the reader saw a different utterance count");
    }
    std::sort(times.begin(), times.end());
    medians.push_back(times[times.size() / 2]);
    fmt::print("{:>10} {:>8} {:>12.1f} {:>14.2f}\n", utterances, frames,
               fs::file_size(path) / 1048576.0, medians.back());
    fs::remove(path);
  }
  fmt::print("open time ratio, largest / smallest cache: {:.2f} (data grew {:.0f}x)\n",
             medians.back() / medians.front(),
             double(frame_counts.back()) / frame_counts.front());
  return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, Action& action) {
  auto* bench = app.add_subcommand("bench", "performance measurements (see docs/performance.md)");
  bench->require_subcommand(1);

  auto* pre = bench->add_subcommand("preprocess", "preprocessing speed against a torchaudio reference");
  auto config = std::make_shared<ConfigOptions>();
  auto input = std::make_shared<std::string>();
  auto workers = std::make_shared<int>(2);
  auto python = std::make_shared<std::string>("/usr/bin/python3");
  auto script = std::make_shared<std::string>(std::string(MYXTTS_SOURCE_DIR) +
                                              "/tools/reference/torchaudio_preprocess.py");
  config->add_to(*pre);
  pre->add_option("-i,--input", *input, "corpus directory")->required();
  pre->add_option("--workers", *workers, "threads for myxtts and processes for the reference");
  pre->add_option("--python", *python, "interpreter with torchaudio (Debian python3-torchaudio)");
  pre->add_option("--reference-script", *script, "the reference pipeline");
  pre->callback([&action, config, input, workers, python, script] {
    action = [=] { return bench_preprocess(*config, *input, *workers, *python, *script); };
  });

  add_pipeline_bench(*bench, action);
  add_step_bench(*bench, action);

  auto* open = bench->add_subcommand("cache-open", "time to open a cache and read its index");
  auto utterances = std::make_shared<int>(10000);
  auto frames = std::make_shared<std::vector<int>>(std::vector<int>{25, 400});
  auto repeats = std::make_shared<int>(5);
  open->add_option("--utterances", *utterances, "utterances per synthetic cache")->check(CLI::PositiveNumber);
  open->add_option("--frames", *frames, "frames per utterance, one cache per value")->check(CLI::PositiveNumber);
  open->add_option("--repeats", *repeats, "opens per cache (the median is reported)")->check(CLI::PositiveNumber);
  open->callback([&action, utterances, frames, repeats] {
    action = [=] {
      return comm::rank() == 0 ? bench_cache_open(*utterances, *frames, *repeats) : 0;
    };
  });
}

}  // namespace myxtts::cli
