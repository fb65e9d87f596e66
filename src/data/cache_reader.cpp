#include "data/cache_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "data/cache_writer.h"
#include "text/vocabulary.h"

namespace myxtts::data {
namespace fs = std::filesystem;

std::string cache_file_path(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) ? (fs::path(path) / kCacheFileName).string() : path;
}

CacheReader::CacheReader(const std::string& path) : path_(cache_file_path(path)) {
  std::error_code ec;
  if (!fs::exists(path_, ec)) {
    std::string partial = path_ + ".partial";
    throw Error(fs::exists(partial, ec)
                    ? fmt::format("cache {} was never completed (only {} exists): run "
                                  "myxtts preprocess again to finish it",
                                  path_, partial)
                    : fmt::format("no cache at {}: run myxtts preprocess first", path_));
  }
  try {
    file_ = h5::open_file_readonly(path_);
  } catch (const Error& e) {
    throw Error(fmt::format("{} is not a readable HDF5 file (truncated or corrupt?): {}; "
                            "delete it and run myxtts preprocess again",
                            path_, e.what()));
  }
  const hid_t root = file_.id();
  auto refuse = [&](const std::string& why) {
    throw Error(fmt::format("{} is not a usable MyXTTS cache: {}; run myxtts preprocess again",
                            path_, why));
  };
  if (!h5::has_attribute(root, "format") ||
      h5::read_string_attribute(root, "format") != kCacheFormatName)
    refuse("it has no 'format = myxtts-cache' attribute");
  int64_t version = h5::read_int_attribute(root, "format_version");
  if (version != kCacheFormatVersion)
    refuse(fmt::format("format version {} but this build reads version {}", version,
                       kCacheFormatVersion));
  if (!h5::has_attribute(root, "complete") || h5::read_int_attribute(root, "complete") != 1)
    refuse("it is incomplete (the writer stopped before finishing)");

  std::string stored_digest;
  try {
    for (const auto& [key, value] : feature_parameters(Config{}))
      if (h5::has_attribute(root, key))
        parameters_.emplace_back(key, h5::read_string_attribute(root, key));
    fingerprint_ = h5::read_string_attribute(root, "fingerprint");
    metadata_.unknown_symbols = h5::read_int_attribute(root, "unknown_symbols");
    metadata_.corpus_format = h5::read_string_attribute(root, "corpus_format");
    metadata_.corpus_listing = h5::read_string_attribute(root, "corpus_listing");
    h5::Handle g = h5::open_group(root, "index");
    index_.id = h5::read_strings(g.id(), "id");
    index_.text = h5::read_strings(g.id(), "text");
    index_.symbols = h5::read_strings(g.id(), "symbols");
    index_.audio_path = h5::read_strings(g.id(), "audio_path");
    index_.speaker = h5::read_vector<int32_t>(g.id(), "speaker");
    index_.language = h5::read_vector<int32_t>(g.id(), "language");
    index_.n_frames = h5::read_vector<int32_t>(g.id(), "n_frames");
    index_.n_tokens = h5::read_vector<int32_t>(g.id(), "n_tokens");
    index_.mel_offset = h5::read_vector<int64_t>(g.id(), "mel_offset");
    index_.token_offset = h5::read_vector<int64_t>(g.id(), "token_offset");
    index_.seconds = h5::read_vector<double>(g.id(), "seconds");
    index_.split = h5::read_vector<uint8_t>(g.id(), "split");
    metadata_.vocabulary = h5::read_strings(root, "vocabulary/symbols");
    text::Vocabulary::from_symbols(metadata_.vocabulary);  // reserved ids first, no duplicates
    metadata_.speakers = h5::read_strings(root, "speakers/names");
    metadata_.languages = h5::read_strings(root, "languages/names");
    h5::Handle r = h5::open_group(root, "rejects");
    auto ids = h5::read_strings(r.id(), "id"), sources = h5::read_strings(r.id(), "source"),
         reasons = h5::read_strings(r.id(), "reason"), details = h5::read_strings(r.id(), "detail");
    for (size_t i = 0; i < ids.size(); ++i)
      metadata_.rejects.push_back({ids[i], sources[i], reasons[i], details[i]});
    auto [frames, mels] = h5::shape(root, "mel");
    total_frames_ = frames;
    n_mels_ = static_cast<int>(mels);
    total_tokens_ = h5::shape(root, "tokens").first;
    mel_ = h5::Handle(MYX_H5(H5Dopen2(root, "mel", H5P_DEFAULT)));
    tokens_ = h5::Handle(MYX_H5(H5Dopen2(root, "tokens", H5P_DEFAULT)));
    stored_digest = h5::read_string_attribute(root, "index_digest");
  } catch (const Error& e) {
    refuse(fmt::format("its layout is damaged: {}", e.what()));
  }
  if (stored_digest != index_digest(index_, metadata_))
    refuse("its index does not match the digest stored with it (damaged ids, texts or lengths)");
  check_consistency();
  for (const auto& [key, value] : parameters_)
    if (key == "audio.log_floor") silence_value_ = std::log(static_cast<float>(std::stod(value)));
}

void CacheReader::check_consistency() const {
  const size_t n = index_.size();
  for (size_t size : {index_.text.size(), index_.symbols.size(), index_.audio_path.size(),
                      index_.speaker.size(), index_.language.size(), index_.n_frames.size(),
                      index_.n_tokens.size(), index_.mel_offset.size(),
                      index_.token_offset.size(), index_.seconds.size(), index_.split.size()})
    if (size != n)
      throw Error(fmt::format("{}: index columns have different lengths ({} vs {}); the cache "
                              "is damaged, run myxtts preprocess again",
                              path_, size, n));
  int64_t frames = 0, tokens = 0;
  for (size_t i = 0; i < n; ++i) {
    if (index_.mel_offset[i] != frames || index_.token_offset[i] != tokens)
      throw Error(fmt::format("{}: offsets of utterance {} ('{}') do not follow its "
                              "predecessors; the cache is damaged, run myxtts preprocess again",
                              path_, i, index_.id[i]));
    frames += index_.n_frames[i];
    tokens += index_.n_tokens[i];
  }
  if (frames != total_frames_ || tokens != total_tokens_)
    throw Error(fmt::format("{}: the index accounts for {} frames and {} tokens but the arrays "
                            "hold {} and {}; the cache is damaged, run myxtts preprocess again",
                            path_, frames, tokens, total_frames_, total_tokens_));
}

void CacheReader::require_compatible(const Config& config) const {
  require_same_values(feature_parameters(config), parameters_,
                      fmt::format("cache {} was made with other feature parameters than this "
                                  "run's config ('here' = config, 'there' = cache)",
                                  path_),
                      "Use the config the cache was made with, or run myxtts preprocess again.");
}

template <class Read>
auto CacheReader::read_feature(size_t i, Read&& read) const {
  try {
    return read();
  } catch (const Error& e) {
    throw Error(fmt::format("{}: features of utterance {} ('{}') cannot be read, the file is "
                            "damaged ({}); run myxtts preprocess again",
                            path_, i, index_.id.at(i), e.what()));
  }
}

std::vector<float> CacheReader::mel(size_t i) const { return mel_rows(i, 0, index_.n_frames.at(i)); }

std::vector<float> CacheReader::mel_rows(size_t i, int64_t first, int64_t count) const {
  const int64_t frames = index_.n_frames.at(i);
  if (first < 0 || first > frames)
    throw Error(fmt::format("{}: frame {} is outside utterance {}", path_, first, i));
  return read_feature(i, [&] {
    return h5::read_rows(mel_.id(), index_.mel_offset[i] + first, std::min(count, frames - first), n_mels_);
  });
}

std::vector<int32_t> CacheReader::tokens(size_t i) const {
  return read_feature(i, [&] {
    return h5::read_range<int32_t>(tokens_.id(), index_.token_offset.at(i), index_.n_tokens.at(i));
  });
}

}  // namespace myxtts::data
