#include "text/vocabulary.h"

#include <fmt/format.h>

#include <iterator>
#include <set>

#include "core/error.h"
#include "text/utf8.h"

namespace myxtts::text {

Vocabulary::Vocabulary() : symbols_(std::begin(kReservedNames), std::end(kReservedNames)) {}

void Vocabulary::add(char32_t symbol) {
  if (ids_.count(symbol) != 0) return;
  ids_.emplace(symbol, static_cast<int32_t>(symbols_.size()));
  symbols_.push_back(encode_utf8(symbol));
}

Vocabulary Vocabulary::build(const std::vector<std::u32string>& texts) {
  std::set<char32_t> seen;
  for (const std::u32string& text : texts) seen.insert(text.begin(), text.end());
  Vocabulary vocabulary;
  for (char32_t symbol : seen) vocabulary.add(symbol);
  return vocabulary;
}

Vocabulary Vocabulary::from_symbols(const std::vector<std::string>& symbols) {
  if (symbols.size() < static_cast<size_t>(kNumReserved))
    throw Error(
        fmt::format("vocabulary has {} symbols, fewer than the {} reserved ones; the "
                    "cache is damaged, rebuild it with preprocess",
                    symbols.size(), kNumReserved));
  for (int32_t id = 0; id < kNumReserved; ++id)
    if (symbols[id] != kReservedNames[id])
      throw Error(
          fmt::format("vocabulary symbol {} is '{}' but must be '{}'; the cache is "
                      "damaged, rebuild it with preprocess",
                      id, symbols[id], kReservedNames[id]));
  Vocabulary vocabulary;
  for (size_t id = kNumReserved; id < symbols.size(); ++id) {
    std::u32string decoded;
    size_t bad_offset = 0;
    if (!decode_utf8(symbols[id], decoded, &bad_offset) || decoded.size() != 1)
      throw Error(
          fmt::format("vocabulary symbol {} ('{}') is not a single Unicode code point; "
                      "the cache is damaged, rebuild it with preprocess",
                      id, symbols[id]));
    if (vocabulary.ids_.count(decoded[0]) != 0)
      throw Error(
          fmt::format("vocabulary symbol {} ('{}') repeats symbol {}; the cache is "
                      "damaged, rebuild it with preprocess",
                      id, symbols[id], vocabulary.ids_.at(decoded[0])));
    vocabulary.add(decoded[0]);
  }
  return vocabulary;
}

Vocabulary Vocabulary::from_inventory(const std::string& utf8_symbols) {
  std::u32string decoded;
  size_t bad_offset = 0;
  if (!decode_utf8(utf8_symbols, decoded, &bad_offset))
    throw Error(
        fmt::format("text.symbols is not valid UTF-8 at byte offset {}; write the "
                    "inventory in UTF-8",
                    bad_offset));
  if (decoded.empty())
    throw Error(
        "text.symbols lists no symbols; an empty inventory means the vocabulary comes "
        "from the corpus (Vocabulary::build)");
  Vocabulary vocabulary;
  for (char32_t symbol : decoded) vocabulary.add(symbol);
  return vocabulary;
}

std::vector<int32_t> Vocabulary::encode(std::u32string_view text, int64_t* unknown) const {
  std::vector<int32_t> ids;
  ids.reserve(text.size());
  int64_t misses = 0;
  for (char32_t symbol : text) {
    const auto found = ids_.find(symbol);
    if (found == ids_.end()) {
      ids.push_back(kUnkId);
      ++misses;
    } else {
      ids.push_back(found->second);
    }
  }
  if (unknown != nullptr) *unknown = misses;
  return ids;
}

std::string Vocabulary::decode(const std::vector<int32_t>& ids) const {
  std::string out;
  for (int32_t id : ids) {
    if (id < 0 || static_cast<size_t>(id) >= symbols_.size())
      throw Error(
          fmt::format("token id {} is outside the vocabulary of {} symbols", id, symbols_.size()));
    out += symbols_[id];
  }
  return out;
}

}  // namespace myxtts::text
