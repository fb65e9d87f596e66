#pragma once
// `myxtts preprocess`: corpus -> HDF5 feature cache, parallel over threads and MPI ranks,
// resumable after a crash. See docs/cache-format.md for the output.
#include <map>
#include <string>

#include "core/config.h"

namespace myxtts::data {

struct PreprocessOptions {
  std::string input;   // corpus directory or listing file
  std::string output;  // cache directory (features.h5, config.yaml, rejects.tsv, logs/)
  bool overwrite = false;
};

struct PreprocessSummary {
  size_t kept = 0;
  size_t rejected = 0;
  double audio_hours = 0.0;
  std::map<std::string, size_t> rejects_by_reason;
  int64_t unknown_symbols = 0;
  double wall_seconds = 0.0;
};

// Fatal problems of the input side (no listing, unusable feature parameters), found before
// anything is written.
void check_inputs(const Config& config, const PreprocessOptions& options);

// Collective: every rank of the job calls it. The summary is complete on rank 0.
PreprocessSummary preprocess(const Config& config, const PreprocessOptions& options);

// Where a cache directory keeps its transient work units and logs.
std::string work_directory(const std::string& output);
std::string log_directory(const std::string& output);

}  // namespace myxtts::data
