#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "cli/commands.h"
#include "comm/world.h"
#include "data/cache_reader.h"

namespace myxtts::cli {
namespace {

void print_histogram(const std::vector<int32_t>& frames) {
  const int bins = 10, width = 40;
  auto [lo_it, hi_it] = std::minmax_element(frames.begin(), frames.end());
  const int lo = *lo_it, hi = *hi_it;
  const double step = std::max(1.0, (hi - lo + 1) / static_cast<double>(bins));
  std::vector<size_t> count(bins, 0);
  for (int f : frames) ++count[std::min(bins - 1, static_cast<int>((f - lo) / step))];
  const size_t most = *std::max_element(count.begin(), count.end());
  fmt::print("frame lengths (min {}, max {}):\n", lo, hi);
  for (int b = 0; b < bins; ++b) {
    const int from = lo + static_cast<int>(b * step), to = lo + static_cast<int>((b + 1) * step) - 1;
    if (from > hi) break;
    fmt::print("  {:>6} - {:<6} {:>7}  {}\n", from, std::min(to, hi), count[b],
               std::string(most ? count[b] * width / most : 0, '#'));
  }
}

int inspect(const std::string& path) {
  data::CacheReader cache(path);
  const data::CacheIndex& ix = cache.index();
  const data::CacheMetadata& meta = cache.metadata();
  size_t validation = 0;
  double hours = 0, validation_hours = 0;
  for (size_t i = 0; i < ix.size(); ++i) {
    hours += ix.seconds[i] / 3600;
    if (ix.split[i]) ++validation, validation_hours += ix.seconds[i] / 3600;
  }
  fmt::print("cache        {}\nfingerprint  {}\ncorpus       {} ({})\n", cache.path(),
             cache.fingerprint(), meta.corpus_listing, meta.corpus_format);
  fmt::print("parameters:\n");
  for (const auto& [key, value] : cache.parameters()) fmt::print("  {:<24} {}\n", key, value);
  fmt::print("utterances   {} ({} train, {} validation)\n", ix.size(), ix.size() - validation,
             validation);
  fmt::print("audio        {:.3f} h ({:.3f} h train, {:.3f} h validation)\n", hours,
             hours - validation_hours, validation_hours);
  fmt::print("frames       {} x {} mels\n", cache.total_frames(), cache.n_mels());
  fmt::print("vocabulary   {} symbols", meta.vocabulary.size());
  if (meta.unknown_symbols) fmt::print(", {} unknown occurrences mapped to <unk>", meta.unknown_symbols);
  fmt::print("\n");
  print_histogram(ix.n_frames);
  std::vector<size_t> per_speaker(meta.speakers.size()), per_language(meta.languages.size());
  for (size_t i = 0; i < ix.size(); ++i) ++per_speaker[ix.speaker[i]], ++per_language[ix.language[i]];
  fmt::print("speakers     {}\n", meta.speakers.size());
  for (size_t s = 0; s < meta.speakers.size(); ++s)
    fmt::print("  {:>4}  {:<24} {} utterances\n", s, meta.speakers[s], per_speaker[s]);
  fmt::print("languages    {}\n", meta.languages.size());
  for (size_t l = 0; l < meta.languages.size(); ++l)
    fmt::print("  {:>4}  {:<24} {} utterances\n", l, meta.languages[l], per_language[l]);
  std::map<std::string, size_t> by_reason;
  for (const auto& r : meta.rejects) ++by_reason[r.reason];
  fmt::print("rejects      {}\n", meta.rejects.size());
  for (const auto& [reason, count] : by_reason) fmt::print("  {:<24} {}\n", reason, count);
  return 0;
}

}  // namespace

void add_inspect_command(CLI::App& app, Action& action) {
  auto* command = app.add_subcommand("inspect", "summarise a feature cache");
  auto path = std::make_shared<std::string>();
  command->add_option("cache", *path, "cache directory or features.h5")->required();
  command->callback([&action, path] {
    action = [path] { return comm::rank() == 0 ? inspect(*path) : 0; };
  });
}

}  // namespace myxtts::cli
