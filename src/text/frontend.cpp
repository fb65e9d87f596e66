#include "text/frontend.h"

#include <fmt/format.h>

#include "core/error.h"
#include "text/normalizer.h"
#include "text/phonemizer.h"
#include "text/utf8.h"

namespace myxtts::text {

TextFrontend::TextFrontend(const TextConfig& cfg)
    : cfg_(cfg), phonemes_(cfg.frontend == "phonemes") {
  if (!phonemes_ && cfg.frontend != "characters")
    throw Error(fmt::format("text.frontend '{}' is not supported; use characters or phonemes",
                            cfg.frontend));
}

std::u32string TextFrontend::symbols(const std::string& raw_utf8,
                                     const std::string& language) const {
  std::u32string decoded;
  size_t bad_offset = 0;
  if (!decode_utf8(raw_utf8, decoded, &bad_offset))
    throw BadInput("text_invalid_utf8",
                   fmt::format("text is not valid UTF-8 at byte offset {} (byte 0x{:02X}); "
                               "re-save the transcript as UTF-8",
                               bad_offset, static_cast<unsigned char>(raw_utf8[bad_offset])));
  std::u32string normalized = normalize_text(decoded, language, cfg_);
  if (normalized.empty())
    throw BadInput("text_empty", fmt::format("text \"{}\" is empty after normalisation", raw_utf8));
  if (!phonemes_) return normalized;

  const std::string ipa = phonemize(encode_utf8(normalized), language);
  std::u32string phonemes;
  if (!decode_utf8(ipa, phonemes, &bad_offset))
    throw Error(
        fmt::format("espeak-ng returned invalid UTF-8 for the {} text \"{}\"", language, raw_utf8));
  if (phonemes.empty())
    throw BadInput(
        "text_empty",
        fmt::format("espeak-ng produced no phonemes for the {} text \"{}\"", language, raw_utf8));
  return phonemes;
}

}  // namespace myxtts::text
