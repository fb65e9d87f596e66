#include "data/merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/error.h"
#include "core/fs.h"
#include "data/cache_writer.h"
#include "data/part_file.h"
#include "data/split.h"
#include "text/utf8.h"
#include "text/vocabulary.h"

namespace myxtts::data {
namespace {

// Names sorted, id = position: stable whatever order the corpus lists them in.
std::vector<std::string> sorted_names(const std::vector<std::string>& names) {
  std::vector<std::string> unique(names);
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  return unique;
}

// Tabs and line breaks inside fields would break the table's columns.
std::string tsv_field(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : std::string(1, c);
  return out;
}

void write_rejects_table(const std::string& path, const std::vector<Reject>& rejects) {
  std::string table = "id\tsource\treason\tdetail\n";
  for (const auto& r : rejects)
    table += fmt::format("{}\t{}\t{}\t{}\n", tsv_field(r.id), tsv_field(r.source), r.reason, tsv_field(r.detail));
  write_file_atomically(path, table);
}

int32_t position(const std::vector<std::string>& sorted, const std::string& name) {
  return static_cast<int32_t>(std::lower_bound(sorted.begin(), sorted.end(), name) - sorted.begin());
}

}  // namespace

void merge_parts(const Config& config, const Corpus& corpus, const std::string& work_dir,
                 int n_chunks, const std::string& cache_path, const std::string& rejects_path,
                 PreprocessSummary& summary) {
  // Pass 1: the small per-utterance records, to build the vocabulary before any token exists.
  CacheIndex index;
  CacheMetadata metadata;
  metadata.rejects = corpus.rejects;
  metadata.corpus_format = corpus.format;
  metadata.corpus_listing = corpus.listing;
  std::vector<std::u32string> symbol_texts;
  std::vector<std::string> speaker_names, language_names;
  for (int chunk = 0; chunk < n_chunks; ++chunk) {
    Part part = read_part(part_path(work_dir, chunk), /*with_mel=*/false);
    for (const auto& r : part.rejects) {
      const Utterance& u = corpus.utterances.at(r.corpus_index);
      metadata.rejects.push_back({u.id, u.source, r.reason, r.detail});
    }
    for (const auto& p : part.utterances) {
      const Utterance& u = corpus.utterances.at(p.corpus_index);
      std::u32string decoded;
      size_t bad = 0;
      if (!text::decode_utf8(p.symbols, decoded, &bad))
        throw Error(fmt::format("{}: damaged symbols for '{}'; delete {} and run again",
                                part_path(work_dir, chunk), u.id, work_dir));
      symbol_texts.push_back(std::move(decoded));
      index.id.push_back(u.id);
      index.text.push_back(u.text);
      index.symbols.push_back(p.symbols);
      index.audio_path.push_back(u.audio_path);
      index.n_frames.push_back(p.n_frames);
      index.seconds.push_back(p.seconds);
      speaker_names.push_back(u.speaker);
      language_names.push_back(u.language);
    }
  }
  write_rejects_table(rejects_path, metadata.rejects);
  for (const auto& r : metadata.rejects) ++summary.rejects_by_reason[r.reason];
  summary.rejected = metadata.rejects.size();
  if (index.size() == 0) {
    std::map<std::string, size_t> by_reason;
    for (const auto& r : metadata.rejects) ++by_reason[r.reason];
    std::string message = fmt::format("every utterance of {} was rejected, nothing to write:",
                                      corpus.listing);
    for (const auto& [reason, count] : by_reason) message += fmt::format("\n  {} x {}", count, reason);
    for (size_t i = 0; i < std::min<size_t>(5, metadata.rejects.size()); ++i)
      message += "\n  e.g. " + metadata.rejects[i].detail;
    throw Error(message + "\nEvery reject is listed in " + rejects_path);
  }
  text::Vocabulary vocabulary = config.text.symbols.empty()
                                    ? text::Vocabulary::build(symbol_texts)
                                    : text::Vocabulary::from_inventory(config.text.symbols);
  std::vector<int32_t> tokens;
  int64_t frames = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    int64_t unknown = 0;
    std::vector<int32_t> ids = vocabulary.encode(symbol_texts[i], &unknown);
    metadata.unknown_symbols += unknown;
    index.token_offset.push_back(static_cast<int64_t>(tokens.size()));
    index.n_tokens.push_back(static_cast<int32_t>(ids.size()));
    tokens.insert(tokens.end(), ids.begin(), ids.end());
    index.mel_offset.push_back(frames);
    frames += index.n_frames[i];
  }
  metadata.vocabulary = vocabulary.symbols();
  metadata.speakers = sorted_names(speaker_names);
  metadata.languages = sorted_names(language_names);
  for (size_t i = 0; i < index.size(); ++i) {
    index.speaker.push_back(position(metadata.speakers, speaker_names[i]));
    index.language.push_back(position(metadata.languages, language_names[i]));
  }
  index.split = assign_validation(index.id, config.data.val_fraction, config.data.val_count,
                                  config.data.seed);

  // Pass 2: stream the mels part by part into the one concatenated array.
  CacheWriter writer(cache_path, config);
  for (int chunk = 0; chunk < n_chunks; ++chunk) {
    Part part = read_part(part_path(work_dir, chunk), /*with_mel=*/true);
    writer.append_mel(part.mel.data(), static_cast<int64_t>(part.mel.size()) / config.audio.n_mels);
  }
  writer.commit(index, tokens, metadata);

  summary.kept = index.size();
  summary.unknown_symbols = metadata.unknown_symbols;
  for (double s : index.seconds) summary.audio_hours += s / 3600.0;
}

}  // namespace myxtts::data
