#include "data/corpus.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <utility>

#include "core/error.h"
#include "core/fingerprint.h"
#include "text/utf8.h"

namespace myxtts::data {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t end = line.find(separator, start);
    fields.push_back(line.substr(start, end - start));
    if (end == std::string::npos) return fields;
    start = end + 1;
  }
}

// Invalid UTF-8 bytes as \xNN, so ids and paths of rejects can be stored and printed.
std::string printable(const std::string& s) {
  std::u32string ignored;
  size_t bad = 0;
  if (text::decode_utf8(s, ignored, &bad)) return s;
  std::string out;
  for (unsigned char c : s) out += c < 0x80 ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02X}", c);
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Reads lines, stripping a UTF-8 BOM and CR line ends (both common in hand-edited files).
class LineReader {
 public:
  LineReader(const std::string& path, Corpus& corpus) : path_(path), in_(path), corpus_(corpus) {
    if (!in_) throw Error(fmt::format("cannot read corpus listing {}: check the path and permissions", path));
  }
  bool next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++number_;
    if (number_ == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) {
      line.erase(0, 3);
      corpus_.had_bom = true;
    }
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
      ++corpus_.crlf_lines;
    }
    return true;
  }
  std::string where() const { return fmt::format("{}:{}", path_, number_); }

 private:
  std::string path_;
  std::ifstream in_;
  Corpus& corpus_;
  int number_ = 0;
};

// Adds an utterance after the checks every format shares.
class Collector {
 public:
  explicit Collector(Corpus& corpus) : corpus_(corpus) {}

  void reject(const std::string& id, const std::string& where, const char* reason,
              const std::string& detail) {
    corpus_.rejects.push_back({printable(id), where, reason, fmt::format("{}: {}", where, detail)});
  }

  void add(Utterance u, const std::string& relative_audio) {
    std::u32string decoded;
    size_t bad = 0;
    for (const std::string* field : {&std::as_const(u.id), &std::as_const(u.text), &relative_audio, &std::as_const(u.speaker)})
      if (!text::decode_utf8(*field, decoded, &bad))
        return reject(u.id, u.source, "invalid_utf8",
                      fmt::format("'{}' is not valid UTF-8 (byte {}); re-save the listing as UTF-8",
                                  printable(*field), bad));
    if (u.id.empty()) return reject(u.id, u.source, "malformed_line", "empty utterance id");
    if (trim(u.text).empty()) return reject(u.id, u.source, "text_empty", "the text is empty");
    if (std::none_of(kLanguages.begin(), kLanguages.end(), [&](const char* l) { return u.language == l; }))
      return reject(u.id, u.source, "unknown_language",
                    fmt::format("language '{}' is not one of: {}", u.language, fmt::join(kLanguages, ", ")));
    fs::path resolved = (fs::path(corpus_.root) / relative_audio).lexically_normal();
    fs::path inside = resolved.lexically_relative(corpus_.root);
    if (relative_audio.empty() || inside.empty() || *inside.begin() == "..")
      return reject(u.id, u.source, "path_outside_corpus",
                    fmt::format("audio path '{}' leaves the corpus directory {}", relative_audio,
                                corpus_.root));
    if (!seen_.insert(u.id).second)
      return reject(u.id, u.source, "duplicate_id",
                    fmt::format("id '{}' was already used at {}", u.id, first_use_[u.id]));
    first_use_[u.id] = u.source;
    u.audio_path = resolved.string();
    corpus_.utterances.push_back(std::move(u));
  }

 private:
  Corpus& corpus_;
  std::set<std::string> seen_;
  std::map<std::string, std::string> first_use_;
};

void read_ljspeech(Corpus& corpus, const DataConfig& data) {
  LineReader reader(corpus.listing, corpus);
  Collector collector(corpus);
  std::string line;
  while (reader.next(line)) {
    if (trim(line).empty()) continue;
    std::vector<std::string> fields = split(line, '|');
    if (fields.size() < 2 || fields.size() > 3) {
      collector.reject(fields[0], reader.where(), "malformed_line",
                       fmt::format("expected 'id|text' or 'id|text|normalized text', found {} "
                                   "field(s)", fields.size()));
      continue;
    }
    Utterance u;
    u.id = trim(fields[0]);
    u.text = fields.size() == 3 && !trim(fields[2]).empty() ? fields[2] : fields[1];
    u.speaker = data.default_speaker;
    u.language = data.default_language;
    u.source = reader.where();
    collector.add(std::move(u), "wavs/" + trim(fields[0]) + ".wav");
  }
}

void read_manifest(Corpus& corpus, const DataConfig& data) {
  LineReader reader(corpus.listing, corpus);
  Collector collector(corpus);
  std::string line;
  if (!reader.next(line))
    throw Error(fmt::format("{} is empty: a manifest starts with a header line naming the "
                            "columns (path<TAB>text[<TAB>speaker][<TAB>language][<TAB>id])",
                            corpus.listing));
  std::vector<std::string> header = split(line, '\t');
  std::map<std::string, size_t> column;
  for (size_t i = 0; i < header.size(); ++i) column[trim(header[i])] = i;
  for (const char* required : {"path", "text"})
    if (!column.count(required))
      throw Error(fmt::format("{}:1: the header has no '{}' column; the header must name at least "
                              "path and text (tab-separated)",
                              corpus.listing, required));
  auto get = [&](const std::vector<std::string>& fields, const char* name, const std::string& fallback) {
    auto it = column.find(name);
    if (it == column.end()) return fallback;
    std::string v = trim(fields[it->second]);
    return v.empty() ? fallback : v;
  };
  while (reader.next(line)) {
    if (trim(line).empty()) continue;
    std::vector<std::string> fields = split(line, '\t');
    if (fields.size() != header.size()) {
      collector.reject("", reader.where(), "malformed_line",
                       fmt::format("expected {} tab-separated fields as in the header, found {}",
                                   header.size(), fields.size()));
      continue;
    }
    Utterance u;
    std::string path = trim(fields[column["path"]]);
    u.id = get(fields, "id", fs::path(path).replace_extension().string());
    u.text = fields[column["text"]];
    u.speaker = get(fields, "speaker", data.default_speaker);
    u.language = get(fields, "language", data.default_language);
    u.source = reader.where();
    collector.add(std::move(u), path);
  }
}

}  // namespace

std::string find_listing(const std::string& input, const std::string& format) {
  std::error_code ec;
  if (!fs::exists(input, ec))
    throw Error(fmt::format("corpus input {} does not exist: pass a corpus directory or its "
                            "metadata.csv / manifest.tsv",
                            input));
  fs::path listing = input;
  if (fs::is_directory(input, ec)) {
    bool has_metadata = fs::exists(fs::path(input) / "metadata.csv", ec);
    bool has_manifest = fs::exists(fs::path(input) / "manifest.tsv", ec);
    if (format == "ljspeech" || (format == "auto" && has_metadata))
      listing = fs::path(input) / "metadata.csv";
    else if (format == "manifest" || (format == "auto" && has_manifest))
      listing = fs::path(input) / "manifest.tsv";
    else
      throw Error(fmt::format("corpus directory {} holds neither metadata.csv (LJSpeech layout) "
                              "nor manifest.tsv; pass the listing file itself or --format",
                              input));
  }
  if (std::ifstream probe(listing); !probe)
    throw Error(fmt::format("cannot read corpus listing {}: check the path and permissions", listing.string()));
  return fs::absolute(listing).lexically_normal().string();
}

Corpus read_corpus(const std::string& input, const std::string& format, const DataConfig& data) {
  Corpus corpus;
  corpus.listing = find_listing(input, format);
  corpus.format = format != "auto"                                  ? format
                  : fs::path(corpus.listing).extension() == ".tsv" ? "manifest"
                                                                    : "ljspeech";
  corpus.root = fs::path(corpus.listing).parent_path().string();
  if (corpus.format == "ljspeech")
    read_ljspeech(corpus, data);
  else
    read_manifest(corpus, data);
  if (corpus.utterances.empty() && corpus.rejects.empty())
    throw Error(fmt::format("corpus listing {} lists no utterances", corpus.listing));
  return corpus;
}

std::string corpus_fingerprint(const Corpus& corpus) {
  uint64_t h = fnv1a64(corpus.format);
  for (const auto& u : corpus.utterances)
    for (const std::string* field : {&u.id, &u.text, &u.audio_path, &u.speaker, &u.language})
      h = fnv1a64(*field + '\x1f', h);
  for (const auto& r : corpus.rejects) h = fnv1a64(r.source + r.reason + '\x1f', h);
  return fmt::format("{:016x}", h);
}

}  // namespace myxtts::data
