#include "text/utf8.h"

#include <fmt/format.h>

#include <cstdint>

#include "core/error.h"

namespace myxtts::text {
namespace {

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

bool is_scalar(char32_t c) { return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF); }

void append(std::string& out, char32_t c) {
  if (!is_scalar(c))
    throw Error(fmt::format("cannot encode U+{:04X} as UTF-8: not a Unicode scalar value",
                            static_cast<uint32_t>(c)));
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

bool decode_utf8(std::string_view s, std::u32string& out, size_t* bad_offset) {
  out.clear();
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto lead = static_cast<unsigned char>(s[i]);
    size_t length = 0;
    char32_t c = 0;
    char32_t min_value = 0;  // smallest value this length may encode; below it is an overlong
    if (lead < 0x80) {
      length = 1;
      c = lead;
    } else if ((lead & 0xE0) == 0xC0) {
      length = 2;
      c = lead & 0x1F;
      min_value = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
      length = 3;
      c = lead & 0x0F;
      min_value = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
      length = 4;
      c = lead & 0x07;
      min_value = 0x10000;
    }
    bool ok = length != 0 && i + length <= s.size();
    for (size_t k = 1; ok && k < length; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      ok = is_continuation(b);
      c = (c << 6) | (b & 0x3F);
    }
    if (!ok || c < min_value || !is_scalar(c)) {
      if (bad_offset != nullptr) *bad_offset = i;
      return false;
    }
    out += c;
    i += length;
  }
  return true;
}

std::string encode_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) append(out, c);
  return out;
}

std::string encode_utf8(char32_t c) {
  std::string out;
  append(out, c);
  return out;
}

}  // namespace myxtts::text
