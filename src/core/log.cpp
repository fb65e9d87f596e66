#include "core/log.h"

#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <filesystem>
#include <mutex>
#include <vector>

namespace myxtts::log {
namespace {

struct State {
  std::mutex mutex;
  int rank = 0;
  int world_size = 1;
  std::vector<spdlog::sink_ptr> sinks;
};

State& state() {
  static State s;
  return s;
}

spdlog::sink_ptr make_console_sink(int rank, bool verbose) {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  if (rank == 0) {
    sink->set_level(verbose ? spdlog::level::debug : spdlog::level::info);
    sink->set_pattern("[%T] [%n] %^%v%$");
  } else {
    sink->set_level(spdlog::level::err);
    sink->set_pattern(fmt::format("[%T] [rank {}] [%n] %^%v%$", rank));
  }
  return sink;
}

}  // namespace

void init(int rank, int world_size, bool verbose) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.rank = rank;
  s.world_size = world_size;
  s.sinks = {make_console_sink(rank, verbose)};
  spdlog::drop_all();
  spdlog::set_level(spdlog::level::debug);
}

void attach_directory(const std::string& dir) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::filesystem::create_directories(dir);
  auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(
      fmt::format("{}/rank-{:05d}.log", dir, s.rank), /*truncate=*/false);
  file->set_level(spdlog::level::debug);
  file->set_pattern(fmt::format("[%Y-%m-%d %T.%e] [rank {}] [%n] [%l] %v", s.rank));
  s.sinks.push_back(file);
  // Existing loggers get the new sink too.
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) { l->sinks().push_back(file); });
}

std::shared_ptr<spdlog::logger> get(const std::string& component) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (auto existing = spdlog::get(component)) return existing;
  if (s.sinks.empty()) s.sinks = {make_console_sink(0, false)};
  auto logger = std::make_shared<spdlog::logger>(component, s.sinks.begin(), s.sinks.end());
  logger->set_level(spdlog::level::debug);
  logger->flush_on(spdlog::level::warn);
  spdlog::register_logger(logger);
  return logger;
}

void speak_on_console() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.sinks.empty() || s.rank == 0) return;
  s.sinks.front()->set_level(spdlog::level::info);
}

int rank() { return state().rank; }
int world_size() { return state().world_size; }

}  // namespace myxtts::log
