#include "text/normalizer.h"

#include "text/numbers_en.h"

namespace myxtts::text {
namespace {

constexpr char32_t kZwnj = 0x200C;

bool is_space(char32_t c) {
  return c == U' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// Control characters and invisible formatting (soft hyphen, zero-width space, bidi marks and
// embeddings, word joiner, BOM): they carry no sound and would become vocabulary symbols.
// ZWNJ and ZWJ are kept because they change how words are read in several scripts.
bool is_dropped(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xAD || c == 0x200B || c == 0x200E ||
         c == 0x200F || (c >= 0x202A && c <= 0x202E) || c == 0x2060 ||
         (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

// Spaces, typographic punctuation and dropped characters; everything else passes through.
std::u32string clean_common(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (is_space(c)) {  // before is_dropped: tabs, newlines and NEL separate words
      out += U' ';
    } else if (is_dropped(c)) {
      continue;
    } else if (c == 0x2018 || c == 0x2019 || c == 0x201A || c == 0x201B || c == 0x2032) {
      out += U'\'';
    } else if (c == 0x201C || c == 0x201D || c == 0x201E || c == 0x201F || c == 0x2033 ||
               c == 0xAB || c == 0xBB) {
      out += U'"';
    } else if ((c >= 0x2010 && c <= 0x2015) || c == 0x2212) {
      out += U'-';
    } else if (c == 0x2026) {
      out += U"...";
    } else {
      out += c;
    }
  }
  return out;
}

// Base letters that compose with a combining mark, and their precomposed (NFC) forms.
struct Composition {
  char32_t mark;
  std::u32string_view bases;
  std::u32string_view composed;
};
constexpr Composition kCompositions[] = {
    {0x0300, U"AEIOUaeiou", U"ÀÈÌÒÙàèìòù"},
    {0x0301, U"AEIOUYaeiouy", U"ÁÉÍÓÚÝáéíóúý"},
    {0x0302, U"AEIOUaeiou", U"ÂÊÎÔÛâêîôû"},
    {0x0303, U"ANOano", U"ÃÑÕãñõ"},
    {0x0308, U"AEIOUaeiouy", U"ÄËÏÖÜäëïöüÿ"},
    {0x030A, U"Aa", U"Åå"},
    {0x0327, U"Cc", U"Çç"},
    {0x0653, U"\u0627", U"\u0622"},  // alef + maddah -> alef with madda
    {0x0654, U"\u0627\u0648\u064A\u06D5\u06C1\u06D2", U"\u0623\u0624\u0626\u06C0\u06C2\u06D3"},
    {0x0655, U"\u0627", U"\u0625"},
};

// Replaces base with the precomposed form of base + mark when there is one.
bool compose_into(char32_t& base, char32_t mark) {
  for (const Composition& composition : kCompositions) {
    if (composition.mark != mark) continue;
    const size_t at = composition.bases.find(base);
    if (at == std::u32string_view::npos) return false;
    base = composition.composed[at];
    return true;
  }
  return false;
}

std::u32string compose(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text)
    if (out.empty() || !compose_into(out.back(), c)) out += c;
  return out;
}

// Simple one-to-one lower-casing of the Latin-1, Latin Extended-A, Greek and Cyrillic blocks.
char32_t to_lower(char32_t c) {
  if ((c >= U'A' && c <= U'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 0x20;
  if (c >= 0x100 && c <= 0x17F) {  // pairs, upper first; the parity flips in two sub-ranges
    if (c == 0x130) return U'i';
    if (c == 0x178) return 0xFF;
    if (c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F) return c;
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return (c % 2 == (odd_upper ? 1u : 0u)) ? c + 1 : c;
  }
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 0x25;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 0x3F;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c == 0x4C0) return 0x4CF;
  if ((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) || (c >= 0x4D0 && c <= 0x4FF))
    return c % 2 == 0 ? c + 1 : c;
  if (c >= 0x4C1 && c <= 0x4CE) return c % 2 == 1 ? c + 1 : c;
  return c;
}

bool is_ascii_letter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }

// Expanded only before a period, which they consume, so "St. Paul" changes but a bare "st" does
// not. "st." reads as "saint": "street" is usually written out or follows a house number.
struct Abbreviation {
  std::u32string_view word;
  std::u32string_view expansion;
};
constexpr Abbreviation kAbbreviations[] = {
    {U"mr", U"mister"},      {U"mrs", U"missus"},    {U"ms", U"miss"},   {U"dr", U"doctor"},
    {U"prof", U"professor"}, {U"st", U"saint"},      {U"jr", U"junior"}, {U"sr", U"senior"},
    {U"vs", U"versus"},      {U"etc", U"et cetera"}, {U"mt", U"mount"},  {U"capt", U"captain"},
};

std::u32string expand_abbreviations_en(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    if (!is_ascii_letter(text[i]) || (i > 0 && is_ascii_letter(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && is_ascii_letter(text[end])) ++end;
    std::u32string word(text.substr(i, end - i));
    for (char32_t& c : word) c = to_lower(c);
    const Abbreviation* match = nullptr;
    if (end < text.size() && text[end] == U'.')
      for (const Abbreviation& a : kAbbreviations)
        if (a.word == word) match = &a;
    if (match == nullptr) {
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    std::u32string expansion(match->expansion);
    if (text[i] >= U'A' && text[i] <= U'Z') expansion[0] -= 0x20;  // keep "Dr." capitalised
    out += expansion;
    i = end + 1;
  }
  return out;
}

// Persian orthography as the hazm normaliser and most Persian TTS corpora have it: Arabic
// code points that look the same become the Persian ones, so each sound has one symbol.
// Harakat (U+064B..U+0652) are dropped: everyday Persian is written without them, so in a
// corpus they appear sporadically and inconsistently and would only add rare symbols (hazm
// drops them by default too).
std::u32string normalize_persian(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (c == 0x064A || c == 0x0649) {
      out += 0x06CC;
    } else if (c == 0x0643) {
      out += 0x06A9;
    } else if (c >= 0x0660 && c <= 0x0669) {
      out += U'0' + (c - 0x0660);
    } else if (c >= 0x06F0 && c <= 0x06F9) {
      out += U'0' + (c - 0x06F0);
    } else if (c == 0x066B) {  // Arabic decimal separator
      out += U'.';
    } else if (c == 0x066C) {  // Arabic thousands separator
      out += U',';
    } else if (c != 0x0640 && !(c >= 0x064B && c <= 0x0652)) {  // tatweel, harakat
      out += c;
    }
  }
  return out;
}

// Whether c can stand next to a meaningful ZWNJ: letters and combining marks. Without Unicode
// tables this excludes what is not: ASCII non-letters, Latin-1 symbols, general punctuation
// and symbol blocks, and Arabic punctuation and digits.
bool is_letter_like(char32_t c) {
  if (c < 0xC0) return is_ascii_letter(c);
  if (c == 0xD7 || c == 0xF7 || (c >= 0x2000 && c <= 0x2BFF) || (c >= 0x3000 && c <= 0x303F))
    return false;
  if (c == 0x060C || c == 0x061B || c == 0x061F || c == 0x06D4) return false;
  return !((c >= 0x0660 && c <= 0x066D) || (c >= 0x06F0 && c <= 0x06F9));
}

// One ZWNJ between two letters ("می‌خواهم"); elsewhere it is a typing accident.
std::u32string tidy_zwnj(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != kZwnj) {
      out += text[i];
      continue;
    }
    size_t next = i;
    while (next < text.size() && text[next] == kZwnj) ++next;
    if (!out.empty() && is_letter_like(out.back()) && next < text.size() &&
        is_letter_like(text[next]))
      out += kZwnj;
    i = next - 1;
  }
  return out;
}

std::u32string collapse_spaces(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text)
    if (c != U' ' || (!out.empty() && out.back() != U' ')) out += c;
  if (!out.empty() && out.back() == U' ') out.pop_back();
  return out;
}

// "en" also matches regional tags such as "en-us".
bool is_language(const std::string& language, const std::string& code) {
  return language == code || language.rfind(code + "-", 0) == 0;
}

}  // namespace

std::u32string normalize_text(std::u32string_view text, const std::string& language,
                              const TextConfig& cfg) {
  std::u32string s = compose(clean_common(text));
  if (cfg.lowercase) {
    // In Turkish and Azerbaijani, capital I lower-cases to dotless ı (İ to i, as everywhere).
    const bool dotless = is_language(language, "tr") || is_language(language, "az");
    for (char32_t& c : s) c = (dotless && c == U'I') ? 0x131 : to_lower(c);
  }
  if (is_language(language, "en")) {
    s = expand_abbreviations_en(s);
    if (cfg.expand_numbers) s = expand_numbers_en(s);
  } else if (is_language(language, "fa")) {
    s = normalize_persian(s);
  }
  return collapse_spaces(tidy_zwnj(s));
}

}  // namespace myxtts::text
