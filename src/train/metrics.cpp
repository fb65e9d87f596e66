#include "train/metrics.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/fs.h"
#include "core/png.h"

namespace myxtts::train {
namespace fs = std::filesystem;

MetricsLog::MetricsLog(const std::string& run_directory, bool writer) : directory_(run_directory) {
  if (writer) events_ = std::make_unique<EventFileWriter>((fs::path(run_directory) / "events").string());
}

void MetricsLog::write(const std::string& kind, int64_t step, const Scalars& values) {
  if (!events_) return;
  std::string line = fmt::format("{{\"step\": {}, \"kind\": \"{}\"", step, kind);
  for (const auto& [key, value] : values) {
    // JSON has no NaN or infinity: a non-finite value is written as null.
    line += std::isfinite(value) ? fmt::format(", \"{}\": {:.8g}", key, value) : fmt::format(", \"{}\": null", key);
    events_->add_scalar(kind + "/" + key, value, step);
  }
  const std::string path = (fs::path(directory_) / "metrics.jsonl").string();
  std::ofstream out(path, std::ios::app);
  out << line << "}\n";
  out.flush();
  if (!out) throw Error(fmt::format("cannot append to {}: {}", path, std::strerror(errno)));
  events_->flush();
}

void MetricsLog::image(const std::string& tag, const std::vector<float>& values, int rows, int cols, int64_t step) {
  if (!events_) return;
  const png::Image image = png::readable_heatmap(values.data(), rows, cols);
  const std::vector<uint8_t>& png = image.png;
  events_->add_image(tag, png, image.width, image.height, step);
  const fs::path images = fs::path(directory_) / "images";
  fs::create_directories(images);
  write_file_atomically((images / fmt::format("{}-{:08d}.png", tag, step)).string(),
                        std::string(png.begin(), png.end()));
  events_->flush();
}

}  // namespace myxtts::train
