#pragma once
// Strict UTF-8 <-> UTF-32 conversion. The text frontend works on code points so that every
// vocabulary symbol is one char32_t; decoding rejects anything a lenient decoder would let
// through (overlongs, surrogates, values past U+10FFFF) so bad transcripts are caught early.
#include <cstddef>
#include <string>
#include <string_view>

namespace myxtts::text {

// Replaces out with the code points of s. On malformed input returns false and, when
// bad_offset is not null, stores the byte offset where the offending sequence starts.
bool decode_utf8(std::string_view s, std::u32string& out, size_t* bad_offset);

// Throw Error for a value that is not a Unicode scalar value (surrogate or > U+10FFFF).
std::string encode_utf8(std::u32string_view s);
std::string encode_utf8(char32_t c);

}  // namespace myxtts::text
