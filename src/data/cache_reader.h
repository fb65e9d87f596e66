#pragma once
// Opening a cache reads only its index and metadata (O(utterances), not O(features));
// mels and tokens are read per utterance with one contiguous read each.
#include <string>
#include <vector>

#include "core/config.h"
#include "data/cache_format.h"
#include "data/h5.h"

namespace myxtts::data {

class CacheReader {
 public:
  // `path`: the cache directory or its features.h5. Refuses files that are not complete
  // MyXTTS caches of this format version, and index/array sizes that disagree.
  explicit CacheReader(const std::string& path);

  // Throws Error naming every feature parameter that differs from `config`.
  void require_compatible(const Config& config) const;

  const CacheIndex& index() const { return index_; }
  const CacheMetadata& metadata() const { return metadata_; }
  const KeyValues& parameters() const { return parameters_; }
  const std::string& fingerprint() const { return fingerprint_; }
  const std::string& path() const { return path_; }
  int n_mels() const { return n_mels_; }
  int64_t total_frames() const { return total_frames_; }

  std::vector<float> mel(size_t utterance) const;  // [n_frames, n_mels]
  // Rows [first, first + count) of one utterance's mel (count clipped to its length).
  std::vector<float> mel_rows(size_t utterance, int64_t first, int64_t count) const;
  // ln(audio.log_floor): the value of silence, used to pad mels.
  float silence_value() const { return silence_value_; }
  std::vector<int32_t> tokens(size_t utterance) const;

 private:
  void check_consistency() const;
  // Runs a feature read, turning HDF5 failures (checksum, I/O) into a message naming the cache.
  template <class Read>
  auto read_feature(size_t utterance, Read&& read) const;
  std::string path_, fingerprint_;
  h5::Handle file_, mel_, tokens_;
  CacheIndex index_;
  CacheMetadata metadata_;
  KeyValues parameters_;
  int n_mels_ = 0;
  float silence_value_ = 0.0f;
  int64_t total_frames_ = 0, total_tokens_ = 0;
};

// features.h5 inside a cache directory, or `path` itself when it names a file.
std::string cache_file_path(const std::string& path);

}  // namespace myxtts::data
