#pragma once
// Reading a corpus listing: LJSpeech layout (metadata.csv + wavs/) or a TSV manifest.
// Bad lines become rejects with a reason; only an unreadable listing is fatal.
#include <string>
#include <vector>

#include "core/config.h"

namespace myxtts::data {

struct Utterance {
  std::string id;
  std::string text;
  std::string audio_path;  // absolute, lexically normal
  std::string speaker;
  std::string language;
  std::string source;  // "file:line" of the listing entry
};

struct Reject {
  std::string id;      // may be empty when the line had none
  std::string source;  // "file:line" or the audio path
  std::string reason;  // stable code, see docs/cache-format.md
  std::string detail;
};

struct Corpus {
  std::string format;  // "ljspeech" or "manifest"
  std::string root;    // directory that every audio path must stay inside
  std::string listing; // metadata.csv or the manifest file
  std::vector<Utterance> utterances;
  std::vector<Reject> rejects;
  int crlf_lines = 0;  // tolerated, counted for the summary
  bool had_bom = false;
};

// `input`: a corpus directory (holding metadata.csv or manifest.tsv) or the listing file.
// `format`: auto | ljspeech | manifest. Throws Error when the listing cannot be found or read,
// or a manifest header lacks the path/text columns.
Corpus read_corpus(const std::string& input, const std::string& format, const DataConfig& data);

// The listing file `input` stands for (absolute path); throws Error when there is none or it
// cannot be read. Cheap: lets commands refuse bad input before creating any output.
std::string find_listing(const std::string& input, const std::string& format);

// Digest of everything the listing contributes (ids, texts, paths, speakers, languages, rejects):
// a resumed run must see the same listing.
std::string corpus_fingerprint(const Corpus& corpus);

}  // namespace myxtts::data
