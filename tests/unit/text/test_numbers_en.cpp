#include <gtest/gtest.h>

#include "text/numbers_en.h"
#include "text/utf8.h"

namespace myxtts::text {
namespace {

std::string expand(const std::string& text) {
  std::u32string decoded;
  EXPECT_TRUE(decode_utf8(text, decoded, nullptr));
  return encode_utf8(expand_numbers_en(decoded));
}

TEST(NumbersEn, SmallCardinals) {
  EXPECT_EQ(expand("0"), "zero");
  EXPECT_EQ(expand("7"), "seven");
  EXPECT_EQ(expand("13"), "thirteen");
  EXPECT_EQ(expand("42"), "forty two");
  EXPECT_EQ(expand("90"), "ninety");
  EXPECT_EQ(expand("100"), "one hundred");
  EXPECT_EQ(expand("101"), "one hundred one");
  EXPECT_EQ(expand("999"), "nine hundred ninety nine");
}

TEST(NumbersEn, LargeCardinals) {
  EXPECT_EQ(expand("1,000"), "one thousand");
  EXPECT_EQ(expand("1000000"), "one million");
  EXPECT_EQ(expand("1,234,567"),
            "one million two hundred thirty four thousand five hundred sixty seven");
  EXPECT_EQ(expand("2000000001"), "two billion one");
  EXPECT_EQ(expand("999,999,999,999"),
            "nine hundred ninety nine billion nine hundred ninety nine million nine hundred "
            "ninety nine thousand nine hundred ninety nine");
}

TEST(NumbersEn, LongRunsAndLeadingZerosReadDigitByDigit) {
  EXPECT_EQ(expand("1234567890123"),
            "one two three four five six seven eight nine zero one two three");
  EXPECT_EQ(expand("007"), "zero zero seven");
}

TEST(NumbersEn, Decimals) {
  EXPECT_EQ(expand("3.5"), "three point five");
  EXPECT_EQ(expand("3.14"), "three point one four");
  EXPECT_EQ(expand("0.05"), "zero point zero five");
  EXPECT_EQ(expand("1,234.5"), "one thousand two hundred thirty four point five");
  EXPECT_EQ(expand("end 3."), "end three.");
}

TEST(NumbersEn, Ordinals) {
  EXPECT_EQ(expand("1st"), "first");
  EXPECT_EQ(expand("2nd"), "second");
  EXPECT_EQ(expand("3rd"), "third");
  EXPECT_EQ(expand("5TH"), "fifth");
  EXPECT_EQ(expand("12th"), "twelfth");
  EXPECT_EQ(expand("20th"), "twentieth");
  EXPECT_EQ(expand("21st"), "twenty first");
  EXPECT_EQ(expand("100th"), "one hundredth");
  EXPECT_EQ(expand("the 1990th."), "the one thousand nine hundred ninetieth.");
}

TEST(NumbersEn, YearsAndDecades) {
  EXPECT_EQ(expand("1990"), "nineteen ninety");
  EXPECT_EQ(expand("1905"), "nineteen oh five");
  EXPECT_EQ(expand("1900"), "nineteen hundred");
  EXPECT_EQ(expand("2005"), "two thousand five");
  EXPECT_EQ(expand("2024"), "twenty twenty four");
  EXPECT_EQ(expand("3000"), "three thousand");
  EXPECT_EQ(expand("1,990"), "one thousand nine hundred ninety");
  EXPECT_EQ(expand("the 1990s"), "the nineteen nineties");
  EXPECT_EQ(expand("80s"), "eighties");
  EXPECT_EQ(expand("6s"), "sixes");
}

TEST(NumbersEn, NumbersInSentences) {
  EXPECT_EQ(expand("I have 2 cats, 10 dogs."), "I have two cats, ten dogs.");
  EXPECT_EQ(expand("an mp3 player"), "an mp three player");
  EXPECT_EQ(expand("3d"), "three d");
  EXPECT_EQ(expand("1,2"), "one,two");
  EXPECT_EQ(expand("12,3456"), "twelve,three thousand four hundred fifty six");
  EXPECT_EQ(expand("no digits here"), "no digits here");
}

}  // namespace
}  // namespace myxtts::text
