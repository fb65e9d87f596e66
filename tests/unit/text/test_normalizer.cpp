#include <gtest/gtest.h>

#include "core/error.h"
#include "text/frontend.h"
#include "text/normalizer.h"
#include "text/utf8.h"

namespace myxtts::text {
namespace {

std::u32string norm(std::u32string_view text, const std::string& language,
                    const TextConfig& cfg = TextConfig{}) {
  return normalize_text(text, language, cfg);
}

// ---- every language ----

TEST(Normalizer, MapsTypographicPunctuationToAscii) {
  EXPECT_EQ(norm(U"\u201CHi\u201D \u2014 it\u2019s \u00ABok\u00BB\u2026", "en"),
            U"\"hi\" - it's \"ok\"...");
}

TEST(Normalizer, MapsUnicodeSpacesAndCollapsesWhitespace) {
  EXPECT_EQ(norm(U"  a\u00A0\u00A0b\t\nc\u3000d\u202Fe\u2009 ", "de"), U"a b c d e");
}

TEST(Normalizer, RemovesControlAndInvisibleFormattingCharacters) {
  EXPECT_EQ(norm(U"a\u0007b\u200Bc\uFEFFd\u00ADe\u0085f", "en"), U"abcde f");
  EXPECT_EQ(norm(U"\u200F\u0633\u0644\u0627\u0645\u200E", "fa"), U"\u0633\u0644\u0627\u0645");
}

TEST(Normalizer, ComposesCommonCombiningSequences) {
  EXPECT_EQ(norm(U"Cafe\u0301 nin\u0303o", "es"), U"caf\u00E9 ni\u00F1o");
  EXPECT_EQ(norm(U"\u0627\u0653\u0628", "fa"), U"\u0622\u0628");  // آب
  EXPECT_EQ(norm(U"x\u0301", "fr"), U"x\u0301");                  // no precomposed form
}

TEST(Normalizer, WhitespaceOnlyBecomesEmpty) { EXPECT_EQ(norm(U" \u200B\u00A0\t ", "en"), U""); }

// ---- English ----

TEST(Normalizer, EnglishLowercasesAndExpandsNumbers) {
  EXPECT_EQ(norm(U"I have 42 Apples.", "en"), U"i have forty two apples.");
  EXPECT_EQ(norm(U"\u00C9COLE \u00C0\u00D6", "en"), U"\u00E9cole \u00E0\u00F6");
}

TEST(Normalizer, EnglishOptionsCanBeTurnedOff) {
  TextConfig cfg;
  cfg.lowercase = false;
  cfg.expand_numbers = false;
  EXPECT_EQ(norm(U"I have 42 Apples.", "en", cfg), U"I have 42 Apples.");
}

TEST(Normalizer, EnglishExpandsAbbreviations) {
  EXPECT_EQ(norm(U"Dr. Who met Mr. and Mrs. Smith on St. James St.", "en"),
            U"doctor who met mister and missus smith on saint james saint");
  TextConfig cased;
  cased.lowercase = false;
  EXPECT_EQ(norm(U"Hello Dr. Smith, etc.", "en", cased), U"Hello Doctor Smith, et cetera");
}

TEST(Normalizer, EnglishLeavesNonAbbreviationsAlone) {
  EXPECT_EQ(norm(U"the best. dr smith first.", "en"), U"the best. dr smith first.");
}

TEST(Normalizer, NumbersAreOnlyExpandedForEnglish) {
  EXPECT_EQ(norm(U"Ich habe 3 Katzen", "de"), U"ich habe 3 katzen");
}

// ---- Persian ----

TEST(Normalizer, PersianUnifiesArabicYehAndKaf) {
  // مي‌خواهم with Arabic Yeh -> می‌خواهم
  EXPECT_EQ(norm(U"\u0645\u064A\u200C\u062E\u0648\u0627\u0647\u0645", "fa"),
            U"\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645");
  // كتاب -> کتاب
  EXPECT_EQ(norm(U"\u0643\u062A\u0627\u0628", "fa"), U"\u06A9\u062A\u0627\u0628");
  // موسى (Alef Maksura) -> موسی
  EXPECT_EQ(norm(U"\u0645\u0648\u0633\u0649", "fa"), U"\u0645\u0648\u0633\u06CC");
}

TEST(Normalizer, PersianKeepsZwnjBetweenLetters) {
  const std::u32string mikhaham = U"\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645";
  EXPECT_EQ(norm(mikhaham, "fa"), mikhaham);
  EXPECT_EQ(norm(U"\u0645\u06CC\u200C\u200C\u200C\u062E\u0648\u0627\u0647\u0645", "fa"), mikhaham);
}

TEST(Normalizer, PersianDropsZwnjAtWordEdges) {
  const std::u32string mi_khaham = U"\u0645\u06CC \u062E\u0648\u0627\u0647\u0645";
  EXPECT_EQ(norm(U"\u0645\u06CC\u200C \u062E\u0648\u0627\u0647\u0645", "fa"), mi_khaham);
  EXPECT_EQ(norm(U"\u0645\u06CC \u200C\u200C\u062E\u0648\u0627\u0647\u0645", "fa"), mi_khaham);
  EXPECT_EQ(norm(U"\u200C\u0645\u06CC\u200C", "fa"), U"\u0645\u06CC");
  EXPECT_EQ(norm(U"\u06A9\u062A\u0627\u0628\u200C\u061F", "fa"), U"\u06A9\u062A\u0627\u0628\u061F");
}

TEST(Normalizer, PersianRemovesTatweelAndHarakat) {
  EXPECT_EQ(norm(U"\u0633\u0640\u0640\u0644\u0627\u0645", "fa"), U"\u0633\u0644\u0627\u0645");
  EXPECT_EQ(norm(U"\u0645\u064E\u0646", "fa"), U"\u0645\u0646");
  EXPECT_EQ(norm(U"\u062D\u062A\u0645\u0627\u064B", "fa"), U"\u062D\u062A\u0645\u0627");
}

TEST(Normalizer, PersianMapsDigitsToAscii) {
  EXPECT_EQ(norm(U"\u06F1\u06F2\u06F3 \u0664\u0665\u066B\u0665", "fa"), U"123 45.5");
}

TEST(Normalizer, PersianKeepsArabicPunctuationAndLowercasesLatin) {
  const std::u32string salam =
      U"\u0633\u0644\u0627\u0645\u060C \u0686\u0637\u0648\u0631\u06CC\u061F";
  EXPECT_EQ(norm(salam, "fa"), salam);
  EXPECT_EQ(norm(U"\u0633\u0644\u0627\u0645 OK", "fa"), U"\u0633\u0644\u0627\u0645 ok");
}

TEST(Normalizer, PersianRulesOnlyApplyToPersian) {
  EXPECT_EQ(norm(U"\u0643\u062A\u0627\u0628", "ar"), U"\u0643\u062A\u0627\u0628");
}

// ---- other languages ----

TEST(Normalizer, LowercasesGreekCyrillicAndLatinExtended) {
  EXPECT_EQ(norm(U"\u0391\u0398\u0397\u039D\u0391 \u0386\u03BB\u03C6\u03B1", "el"),
            U"\u03B1\u03B8\u03B7\u03BD\u03B1 \u03AC\u03BB\u03C6\u03B1");  // ΑΘΗΝΑ Άλφα
  EXPECT_EQ(
      norm(U"\u041F\u0440\u0438\u0432\u0435\u0442 \u041C\u0418\u0420 \u0401\u0436", "ru"),
      U"\u043F\u0440\u0438\u0432\u0435\u0442 \u043C\u0438\u0440 \u0451\u0436");  // Привет МИР Ёж
  EXPECT_EQ(norm(U"\u0141\u00D3D\u0179 \u0130STANBUL \u015E", "tr"),
            U"\u0142\u00F3d\u017A istanbul \u015F");            // ŁÓDŹ İSTANBUL Ş
  EXPECT_EQ(norm(U"I\u015EIK", "tr"), U"\u0131\u015F\u0131k");  // IŞIK -> ışık
  EXPECT_EQ(norm(U"IRIS", "en"), U"iris");
  EXPECT_EQ(norm(U"Stra\u00DFe \u00C4\u00D6\u00DC", "de"), U"stra\u00DFe \u00E4\u00F6\u00FC");
}

TEST(Normalizer, LowercaseOffKeepsCase) {
  TextConfig cfg;
  cfg.lowercase = false;
  EXPECT_EQ(norm(U"\u041F\u0440\u0438\u0432\u0435\u0442 Welt", "ru", cfg),
            U"\u041F\u0440\u0438\u0432\u0435\u0442 Welt");
}

// ---- TextFrontend, characters ----

TEST(TextFrontend, CharactersAreTheNormalisedText) {
  EXPECT_EQ(TextFrontend(TextConfig{}).symbols("Hello,\u00A0World 2!", "en"), U"hello, world two!");
  EXPECT_EQ(TextFrontend(TextConfig{}).symbols("\xD9\x83\xD8\xAA\xD8\xA7\xD8\xA8", "fa"),
            U"\u06A9\u062A\u0627\u0628");
}

TEST(TextFrontend, InvalidUtf8IsRejectedWithOffset) {
  try {
    TextFrontend(TextConfig{}).symbols("abc\xC0\xAF", "en");
    FAIL() << "no exception";
  } catch (const BadInput& e) {
    EXPECT_EQ(e.reason(), "text_invalid_utf8");
    EXPECT_NE(std::string(e.what()).find("byte offset 3"), std::string::npos) << e.what();
  }
}

TEST(TextFrontend, EmptyTextIsRejected) {
  try {
    TextFrontend(TextConfig{}).symbols(" \xE2\x80\x8B ", "en");  // space, ZWSP, space
    FAIL() << "no exception";
  } catch (const BadInput& e) {
    EXPECT_EQ(e.reason(), "text_empty");
  }
}

TEST(TextFrontend, UnknownFrontendIsAnError) {
  TextConfig cfg;
  cfg.frontend = "words";
  EXPECT_THROW(TextFrontend{cfg}, Error);
}

}  // namespace
}  // namespace myxtts::text
