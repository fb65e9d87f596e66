#pragma once
// Where training reports go: <run>/metrics.jsonl (one JSON object per log interval or validation),
// TensorBoard event files in <run>/events/ with the same scalars, and images (PNG in the event
// file and in <run>/images/). Only the first trainer writes; the others keep no files.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "train/event_file.h"

namespace myxtts::train {

using Scalars = std::vector<std::pair<std::string, double>>;

class MetricsLog {
 public:
  // `writer`: this rank writes the files (all calls are no-ops otherwise).
  MetricsLog(const std::string& run_directory, bool writer);
  // One metrics.jsonl line {"step": N, "kind": kind, key: value...}; event scalars "<kind>/<key>".
  void write(const std::string& kind, int64_t step, const Scalars& values);
  // A heat map of a row-major [rows, cols] matrix (row 0 drawn at the bottom).
  void image(const std::string& tag, const std::vector<float>& values, int rows, int cols, int64_t step);

 private:
  std::string directory_;
  std::unique_ptr<EventFileWriter> events_;
};

}  // namespace myxtts::train
