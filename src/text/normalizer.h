#pragma once
// Language-aware text normalisation without ICU: the same transcript always becomes the same
// code point sequence, so the vocabulary stays small and the cache is reproducible.
#include <string>
#include <string_view>

#include "core/config.h"

namespace myxtts::text {

// Every language: typographic quotes, dashes and the ellipsis become ASCII; control and
// invisible formatting characters are dropped; every Unicode space becomes ' '; common Latin-1
// and Arabic base + combining mark pairs are composed (the NFC forms that occur in practice);
// ZWNJ survives only between two letters (one of a run); whitespace is collapsed and trimmed.
// "en": abbreviations (mr., dr., st., ...) are expanded and, with cfg.expand_numbers, numbers
// are spelled out. "fa": Arabic Yeh/Kaf become their Persian forms, tatweel and harakat are
// dropped, Arabic-Indic and Persian digits become ASCII. With cfg.lowercase, Latin, Greek and
// Cyrillic letters are lower-cased in every language ("tr"/"az": I -> dotless ı).
std::u32string normalize_text(std::u32string_view text, const std::string& language,
                              const TextConfig& cfg);

}  // namespace myxtts::text
