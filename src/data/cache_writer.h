#pragma once
// Writes a complete cache to "<path>.partial" and renames it to <path> only after the last byte,
// so no reader ever sees a half-written cache.
#include <memory>
#include <string>

#include "core/config.h"
#include "data/cache_format.h"
#include "data/h5.h"

namespace myxtts::data {

// The feature-shaping parameters (audio.*, text.*) stored as root attributes and compared by
// readers; their digest with the vocabulary is the cache fingerprint.
KeyValues feature_parameters(const Config& config);

class CacheWriter {
 public:
  CacheWriter(const std::string& path, const Config& config);
  ~CacheWriter();
  // Mels arrive in index order; offsets in the index must match what was appended.
  void append_mel(const float* rows, int64_t n_frames);
  // Writes index, tokens and metadata, marks the file complete and moves it into place.
  void commit(const CacheIndex& index, const std::vector<int32_t>& tokens,
              const CacheMetadata& metadata);

 private:
  std::string path_, partial_path_;
  Config config_;
  h5::Handle file_;
  std::unique_ptr<h5::RowAppender> mel_;
  bool committed_ = false;
};

}  // namespace myxtts::data
