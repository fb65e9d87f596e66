#include "data/cache_writer.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "core/error.h"
#include "core/fingerprint.h"

namespace myxtts::data {

namespace {

template <class T>
uint64_t digest_numbers(const std::vector<T>& values, uint64_t h) {
  return fnv1a64(std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)), h);
}

uint64_t digest_strings(const std::vector<std::string>& values, uint64_t h) {
  for (const auto& v : values) h = fnv1a64(v + '\x1f', h);
  return fnv1a64("\x1e", h);
}

}  // namespace

std::string index_digest(const CacheIndex& ix, const CacheMetadata& meta) {
  uint64_t h = fnv1a64("myxtts-index");
  for (const auto* strings : {&ix.id, &ix.text, &ix.symbols, &ix.audio_path, &meta.vocabulary,
                              &meta.speakers, &meta.languages})
    h = digest_strings(*strings, h);
  for (const auto* ints : {&ix.speaker, &ix.language, &ix.n_frames, &ix.n_tokens}) h = digest_numbers(*ints, h);
  h = digest_numbers(ix.mel_offset, h);
  h = digest_numbers(ix.token_offset, h);
  h = digest_numbers(ix.seconds, h);
  h = digest_numbers(ix.split, h);
  return fmt::format("{:016x}", h);
}

KeyValues feature_parameters(const Config& config) {
  KeyValues out;
  for (auto& kv : flatten(config))
    if (kv.first.rfind("audio.", 0) == 0 || kv.first.rfind("text.", 0) == 0) out.push_back(kv);
  return out;
}

CacheWriter::CacheWriter(const std::string& path, const Config& config)
    : path_(path), partial_path_(path + ".partial"), config_(config) {
  file_ = h5::create_file(partial_path_);
  mel_ = std::make_unique<h5::RowAppender>(file_.id(), "mel", config.audio.n_mels,
                                           config.preprocess.mel_chunk_frames);
}

CacheWriter::~CacheWriter() {
  if (committed_) return;
  mel_.reset();
  file_.close();
  std::remove(partial_path_.c_str());
}

void CacheWriter::append_mel(const float* rows, int64_t n_frames) { mel_->append(rows, n_frames); }

void CacheWriter::commit(const CacheIndex& index, const std::vector<int32_t>& tokens,
                         const CacheMetadata& metadata) {
  const hid_t root = file_.id();
  h5::write_vector(root, "tokens", tokens, /*checksum_chunk=*/65536);
  {
    h5::Handle g = h5::create_group(root, "index");
    h5::write_strings(g.id(), "id", index.id);
    h5::write_strings(g.id(), "text", index.text);
    h5::write_strings(g.id(), "symbols", index.symbols);
    h5::write_strings(g.id(), "audio_path", index.audio_path);
    h5::write_vector(g.id(), "speaker", index.speaker);
    h5::write_vector(g.id(), "language", index.language);
    h5::write_vector(g.id(), "n_frames", index.n_frames);
    h5::write_vector(g.id(), "n_tokens", index.n_tokens);
    h5::write_vector(g.id(), "mel_offset", index.mel_offset);
    h5::write_vector(g.id(), "token_offset", index.token_offset);
    h5::write_vector(g.id(), "seconds", index.seconds);
    h5::write_vector(g.id(), "split", index.split);
  }
  {
    h5::Handle g = h5::create_group(root, "vocabulary");
    h5::write_strings(g.id(), "symbols", metadata.vocabulary);
  }
  {
    h5::Handle g = h5::create_group(root, "speakers");
    h5::write_strings(g.id(), "names", metadata.speakers);
  }
  {
    h5::Handle g = h5::create_group(root, "languages");
    h5::write_strings(g.id(), "names", metadata.languages);
  }
  {
    h5::Handle g = h5::create_group(root, "rejects");
    std::vector<std::string> id, source, reason, detail;
    for (const auto& r : metadata.rejects) {
      id.push_back(r.id);
      source.push_back(r.source);
      reason.push_back(r.reason);
      detail.push_back(r.detail);
    }
    h5::write_strings(g.id(), "id", id);
    h5::write_strings(g.id(), "source", source);
    h5::write_strings(g.id(), "reason", reason);
    h5::write_strings(g.id(), "detail", detail);
  }
  std::string parameters;
  for (const auto& [key, value] : feature_parameters(config_)) {
    h5::write_attribute(root, key, value);
    parameters += key + "=" + value + "\n";
  }
  // data.* shaped the index (length limits, split) but not the features: recorded, not compared.
  for (const auto& [key, value] : flatten(config_))
    if (key.rfind("data.", 0) == 0) h5::write_attribute(root, key, value);
  std::string vocabulary;
  for (const auto& s : metadata.vocabulary) vocabulary += s + "\n";
  h5::write_attribute(root, "format", std::string(kCacheFormatName));
  h5::write_attribute(root, "format_version", kCacheFormatVersion);
  h5::write_attribute(root, "parameters_fingerprint", fingerprint(parameters));
  h5::write_attribute(root, "fingerprint", fingerprint(parameters + vocabulary));
  h5::write_attribute(root, "created_by", std::string("myxtts ") + MYXTTS_VERSION);
  h5::write_attribute(root, "corpus_format", metadata.corpus_format);
  h5::write_attribute(root, "corpus_listing", metadata.corpus_listing);
  h5::write_attribute(root, "unknown_symbols", metadata.unknown_symbols);
  h5::write_attribute(root, "index_digest", index_digest(index, metadata));
  // Written last: a file without it was cut short and is refused by the reader.
  h5::write_attribute(root, "complete", int64_t{1});
  mel_.reset();
  file_.close_checked();
  std::error_code ec;
  std::filesystem::rename(partial_path_, path_, ec);
  if (ec) throw Error(fmt::format("cannot move {} to {}: {}", partial_path_, path_, ec.message()));
  committed_ = true;
}

}  // namespace myxtts::data
