#pragma once
// Raw transcript -> model symbols: UTF-8 decoding, normalisation and, for the "phonemes"
// frontend, espeak-ng IPA. Each returned code point is one vocabulary symbol.
#include <string>

#include "core/config.h"

namespace myxtts::text {

class TextFrontend {
 public:
  // Throws Error for a frontend other than "characters" or "phonemes".
  explicit TextFrontend(const TextConfig& cfg);

  // Throws BadInput "text_invalid_utf8" (with the byte offset) or "text_empty" (nothing left
  // to say after normalisation or phonemization); Error when espeak-ng fails.
  std::u32string symbols(const std::string& raw_utf8, const std::string& language) const;

 private:
  TextConfig cfg_;
  bool phonemes_;
};

}  // namespace myxtts::text
