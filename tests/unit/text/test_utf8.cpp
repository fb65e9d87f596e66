#include <gtest/gtest.h>

#include "core/error.h"
#include "text/utf8.h"

namespace myxtts::text {
namespace {

// Decodes s, expecting failure, and returns the reported byte offset.
size_t bad_offset_of(std::string_view s) {
  std::u32string out;
  size_t offset = 12345;
  EXPECT_FALSE(decode_utf8(s, out, &offset)) << "accepted invalid input";
  return offset;
}

TEST(Utf8, DecodesOneToFourByteSequences) {
  std::u32string out;
  ASSERT_TRUE(decode_utf8("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", out, nullptr));
  EXPECT_EQ(out, U"a\u00E9\u20AC\U0001F600");
}

TEST(Utf8, DecodesPersianWithZwnj) {
  std::u32string out;
  ASSERT_TRUE(decode_utf8("می‌خواهم", out, nullptr));
  EXPECT_EQ(out, U"\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645");
}

TEST(Utf8, DecodeReplacesPreviousContent) {
  std::u32string out = U"old";
  ASSERT_TRUE(decode_utf8("", out, nullptr));
  EXPECT_EQ(out, U"");
}

TEST(Utf8, EncodesLengthBoundaries) {
  EXPECT_EQ(encode_utf8(char32_t{0x7F}), "\x7F");
  EXPECT_EQ(encode_utf8(char32_t{0x80}), "\xC2\x80");
  EXPECT_EQ(encode_utf8(char32_t{0x7FF}), "\xDF\xBF");
  EXPECT_EQ(encode_utf8(char32_t{0x800}), "\xE0\xA0\x80");
  EXPECT_EQ(encode_utf8(char32_t{0xFFFF}), "\xEF\xBF\xBF");
  EXPECT_EQ(encode_utf8(char32_t{0x10000}), "\xF0\x90\x80\x80");
  EXPECT_EQ(encode_utf8(char32_t{0x10FFFF}), "\xF4\x8F\xBF\xBF");
}

TEST(Utf8, RoundTripsBoundaryCodePoints) {
  const std::u32string text = U"\u007F\u0080\u07FF\u0800\uD7FF\uE000\uFFFF\U00010000\U0010FFFF";
  std::u32string back;
  ASSERT_TRUE(decode_utf8(encode_utf8(text), back, nullptr));
  EXPECT_EQ(back, text);
}

TEST(Utf8, EncodeRejectsNonScalarValues) {
  EXPECT_THROW(encode_utf8(char32_t{0xD800}), Error);
  EXPECT_THROW(encode_utf8(char32_t{0x110000}), Error);
  EXPECT_THROW(encode_utf8(std::u32string_view(U"ok\xDFFF")), Error);
}

TEST(Utf8, RejectsOverlongEncodings) {
  EXPECT_EQ(bad_offset_of("\xC0\xAF"), 0u);  // '/' in two bytes
  EXPECT_EQ(bad_offset_of("ab\xC1\xBF"), 2u);
  EXPECT_EQ(bad_offset_of("ab\xE0\x80\xAF"), 2u);     // '/' in three bytes
  EXPECT_EQ(bad_offset_of("x\xF0\x82\x82\xAC"), 1u);  // U+20AC in four bytes
}

TEST(Utf8, RejectsSurrogates) {
  EXPECT_EQ(bad_offset_of("x\xED\xA0\x80"), 1u);  // U+D800
  EXPECT_EQ(bad_offset_of("\xED\xBF\xBFy"), 0u);  // U+DFFF
}

TEST(Utf8, RejectsValuesAboveUnicodeRange) {
  EXPECT_EQ(bad_offset_of("\xF4\x90\x80\x80"), 0u);  // U+110000
  EXPECT_EQ(bad_offset_of("ok\xF5\x80\x80\x80"), 2u);
  EXPECT_EQ(bad_offset_of("\xFF"), 0u);
}

TEST(Utf8, RejectsTruncatedAndStraySequences) {
  EXPECT_EQ(bad_offset_of("abc\xE2\x82"), 3u);  // ends mid-sequence
  EXPECT_EQ(bad_offset_of("\xE2\x82"
                          "A"),
            0u);                          // continuation byte missing
  EXPECT_EQ(bad_offset_of("a\x80"), 1u);  // stray continuation byte
  EXPECT_EQ(bad_offset_of("\xC3\xA9\xF0\x9F\x98"), 2u);
}

}  // namespace
}  // namespace myxtts::text
