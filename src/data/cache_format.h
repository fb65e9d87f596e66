#pragma once
// The in-memory picture of a feature cache, shared by the writer and the reader.
// docs/cache-format.md documents the HDF5 layout these fields map to.
#include <cstdint>
#include <string>
#include <vector>

#include "data/corpus.h"

namespace myxtts::data {

inline constexpr const char* kCacheFormatName = "myxtts-cache";
inline constexpr int64_t kCacheFormatVersion = 1;
inline constexpr const char* kCacheFileName = "features.h5";

enum class Split : uint8_t { kTrain = 0, kValidation = 1 };

// One row per kept utterance, in corpus order.
struct CacheIndex {
  std::vector<std::string> id, text, symbols, audio_path;
  std::vector<int32_t> speaker, language, n_frames, n_tokens;
  std::vector<int64_t> mel_offset, token_offset;
  std::vector<double> seconds;
  std::vector<uint8_t> split;
  size_t size() const { return id.size(); }
};

// Digest of the index columns and the name lists: HDF5 checksums only the chunked feature
// arrays, so the writer stores this and the reader recomputes it.
struct CacheMetadata;
std::string index_digest(const CacheIndex& index, const CacheMetadata& metadata);

struct CacheMetadata {
  std::vector<std::string> vocabulary;  // index = token id
  std::vector<std::string> speakers, languages;
  std::vector<Reject> rejects;
  int64_t unknown_symbols = 0;
  std::string corpus_format, corpus_listing;
};

}  // namespace myxtts::data
