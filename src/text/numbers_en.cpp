#include "text/numbers_en.h"

#include <cstdint>
#include <string>
#include <utility>

namespace myxtts::text {
namespace {

constexpr const char* kOnes[] = {"zero",    "one",     "two",       "three",    "four",
                                 "five",    "six",     "seven",     "eight",    "nine",
                                 "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                 "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
constexpr const char* kTens[] = {"",      "",      "twenty",  "thirty", "forty",
                                 "fifty", "sixty", "seventy", "eighty", "ninety"};
constexpr const char* kScales[] = {"", "thousand", "million", "billion"};
constexpr size_t kMaxCardinalDigits = 12;  // up to 999,999,999,999

enum class Suffix { kNone, kOrdinal, kPlural };

bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }

// Latin letters only: this runs on English text, where these are the letters that can touch a
// number ("mp3", "3d").
bool is_letter(char32_t c) {
  return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') ||
         (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7);
}

char32_t ascii_lower(char32_t c) { return (c >= U'A' && c <= U'Z') ? c + 32 : c; }

void add_word(std::string& out, const std::string& word) {
  if (!out.empty()) out += ' ';
  out += word;
}

void add_below_thousand(std::string& out, int n) {
  if (n >= 100) {
    add_word(out, kOnes[n / 100]);
    add_word(out, "hundred");
    n %= 100;
    if (n == 0) return;
  }
  if (n < 20) {
    add_word(out, kOnes[n]);
  } else {
    add_word(out, kTens[n / 10]);
    if (n % 10 != 0) add_word(out, kOnes[n % 10]);
  }
}

std::string cardinal(uint64_t n) {
  if (n == 0) return kOnes[0];
  std::string out;
  uint64_t scale = 1'000'000'000;
  for (int index = 3; index >= 0; --index, scale /= 1000) {
    const int group = static_cast<int>((n / scale) % 1000);
    if (group == 0) continue;
    add_below_thousand(out, group);
    if (index > 0) add_word(out, kScales[index]);
  }
  return out;
}

std::string digit_by_digit(const std::string& digits) {
  std::string out;
  for (char d : digits) add_word(out, kOnes[d - '0']);
  return out;
}

// "1905" -> "nineteen oh five", "1900" -> "nineteen hundred", "2024" -> "twenty twenty four".
std::string year(int n) {
  const int high = n / 100, low = n % 100;
  std::string out = cardinal(high);
  if (low == 0) {
    add_word(out, "hundred");
  } else if (low < 10) {
    add_word(out, "oh");
    add_word(out, kOnes[low]);
  } else {
    add_word(out, cardinal(low));
  }
  return out;
}

bool reads_as_year(const std::string& digits) {
  if (digits.size() != 4) return false;
  const int n = std::stoi(digits);
  return n >= 1100 && n <= 2099 && !(n >= 2000 && n <= 2009);
}

std::string integer_words(const std::string& digits, bool grouped, bool year_allowed) {
  if (digits.size() > kMaxCardinalDigits || (digits.size() > 1 && digits[0] == '0'))
    return digit_by_digit(digits);
  if (!grouped && year_allowed && reads_as_year(digits)) return year(std::stoi(digits));
  return cardinal(std::stoull(digits));
}

// Rewrites the last word: "twenty one" -> "twenty first", "ninety" -> "ninetieth".
std::string ordinal(std::string words) {
  static const std::pair<const char*, const char*> kIrregular[] = {
      {"one", "first"},    {"two", "second"}, {"three", "third"},   {"five", "fifth"},
      {"eight", "eighth"}, {"nine", "ninth"}, {"twelve", "twelfth"}};
  const size_t space = words.rfind(' ');
  const size_t start = space == std::string::npos ? 0 : space + 1;
  const std::string last = words.substr(start);
  words.erase(start);
  for (const auto& [cardinal_word, ordinal_word] : kIrregular)
    if (last == cardinal_word) return words + ordinal_word;
  if (last.back() == 'y') return words + last.substr(0, last.size() - 1) + "ieth";
  return words + last + "th";
}

// "nineteen ninety" -> "nineteen nineties", "six" -> "sixes".
std::string plural(std::string words) {
  if (words.back() == 'y') return words.substr(0, words.size() - 1) + "ies";
  if (words.back() == 'x') return words + "es";
  return words + "s";
}

// Recognises "st"/"nd"/"rd"/"th" or "s" right after the digits, when no letter follows.
Suffix read_suffix(std::u32string_view text, size_t at, size_t* length) {
  auto ends_word = [&](size_t pos) { return pos >= text.size() || !is_letter(text[pos]); };
  if (at + 1 < text.size() && ends_word(at + 2)) {
    const std::u32string two = {ascii_lower(text[at]), ascii_lower(text[at + 1])};
    if (two == U"st" || two == U"nd" || two == U"rd" || two == U"th") {
      *length = 2;
      return Suffix::kOrdinal;
    }
  }
  if (at < text.size() && ascii_lower(text[at]) == U's' && ends_word(at + 1)) {
    *length = 1;
    return Suffix::kPlural;
  }
  *length = 0;
  return Suffix::kNone;
}

size_t digits_end(std::u32string_view text, size_t from) {
  while (from < text.size() && is_digit(text[from])) ++from;
  return from;
}

std::string ascii(std::u32string_view digits) { return std::string(digits.begin(), digits.end()); }

}  // namespace

std::u32string expand_numbers_en(std::u32string_view text) {
  std::u32string out;
  size_t i = 0;
  while (i < text.size()) {
    if (!is_digit(text[i])) {
      out += text[i++];
      continue;
    }
    size_t end = digits_end(text, i);
    std::string digits = ascii(text.substr(i, end - i));
    // Thousands separators: "1,234,567" but not "1,2" or "12,3456".
    bool grouped = false;
    if (digits.size() <= 3) {
      while (end < text.size() && text[end] == U',' && digits_end(text, end + 1) == end + 4) {
        digits += ascii(text.substr(end + 1, 3));
        end += 4;
        grouped = true;
      }
    }
    std::string fraction;
    if (end + 1 < text.size() && text[end] == U'.' && is_digit(text[end + 1])) {
      const size_t fraction_end = digits_end(text, end + 1);
      fraction = ascii(text.substr(end + 1, fraction_end - end - 1));
      end = fraction_end;
    }
    size_t suffix_length = 0;
    const Suffix suffix = fraction.empty() ? read_suffix(text, end, &suffix_length) : Suffix::kNone;
    end += suffix_length;

    std::string words = integer_words(digits, grouped, suffix != Suffix::kOrdinal);
    if (!fraction.empty()) words += " point " + digit_by_digit(fraction);
    if (suffix == Suffix::kOrdinal) words = ordinal(words);
    if (suffix == Suffix::kPlural) words = plural(words);

    if (!out.empty() && is_letter(out.back())) out += U' ';
    out.append(words.begin(), words.end());
    if (end < text.size() && is_letter(text[end])) out += U' ';
    i = end;
  }
  return out;
}

}  // namespace myxtts::text
