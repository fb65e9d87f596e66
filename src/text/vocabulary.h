#pragma once
// Symbol <-> id mapping. Every symbol is one Unicode code point, so the frontend's output maps
// to ids without tokenisation; ids 0..3 are reserved for the special tokens.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace myxtts::text {

class Vocabulary {
 public:
  static constexpr int32_t kPadId = 0;
  static constexpr int32_t kBosId = 1;
  static constexpr int32_t kEosId = 2;
  static constexpr int32_t kUnkId = 3;
  static constexpr int32_t kNumReserved = 4;
  static constexpr const char* kReservedNames[kNumReserved] = {"<pad>", "<bos>", "<eos>", "<unk>"};

  // Reserved symbols, then every code point seen in texts, sorted by code point.
  static Vocabulary build(const std::vector<std::u32string>& texts);
  // The full list as stored in a cache (reserved names first); throws Error if it is malformed.
  static Vocabulary from_symbols(const std::vector<std::string>& symbols);
  // Reserved symbols, then each code point of utf8_symbols in order of first appearance
  // (text.symbols); throws Error if the string is empty or not valid UTF-8.
  static Vocabulary from_inventory(const std::string& utf8_symbols);

  // One id per code point, without <bos>/<eos>. Unknown symbols become kUnkId; when unknown is
  // not null it receives how many there were in this call.
  std::vector<int32_t> encode(std::u32string_view text, int64_t* unknown) const;
  // Concatenates the symbols (reserved ids as their names); throws Error for an id out of range.
  std::string decode(const std::vector<int32_t>& ids) const;

  // UTF-8 strings, index = id.
  const std::vector<std::string>& symbols() const { return symbols_; }
  size_t size() const { return symbols_.size(); }

 private:
  Vocabulary();
  void add(char32_t symbol);

  std::vector<std::string> symbols_;
  std::unordered_map<char32_t, int32_t> ids_;
};

}  // namespace myxtts::text
