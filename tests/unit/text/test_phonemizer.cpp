// Expected IPA is espeak-ng 1.51's output (Debian 12); a different espeak-ng release may
// transcribe some words differently.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "text/frontend.h"
#include "text/phonemizer.h"

namespace myxtts::text {
namespace {

TEST(Phonemizer, EnglishHelloWorld) { EXPECT_EQ(phonemize("hello world", "en"), "həlˈəʊ wˈɜːld"); }

TEST(Phonemizer, ClausesAreJoinedWithOneSpace) {
  EXPECT_EQ(phonemize("hello, world. how are you?", "en"), "həlˈəʊ wˈɜːld hˈaʊ ɑː juː");
}

TEST(Phonemizer, PersianSentence) {
  EXPECT_EQ(phonemize("سلام", "fa"), "salˈɑm");
  // من می‌خواهم به خانه بروم. ("I want to go home.")
  EXPECT_EQ(phonemize("من می‌خواهم به خانه بروم.", "fa"),
            "man mixˈɑham beː xˈɑneː berˈavam");
}

TEST(Phonemizer, LanguageSwitchMarkersAreRemoved) {
  // espeak-ng reads "hello" with English rules and would mark it "(en)həlˈəʊ(fa)".
  EXPECT_EQ(phonemize("hello 12", "fa"), "həlˈəʊ davˈɑzdah");
}

TEST(Phonemizer, EmptyOrSilentTextGivesNoPhonemes) {
  EXPECT_EQ(phonemize("", "en"), "");
  EXPECT_EQ(phonemize("...", "en"), "");
}

TEST(Phonemizer, ChineseUsesTheCmnVoice) { EXPECT_FALSE(phonemize("ni hao", "zh").empty()); }

TEST(Phonemizer, UnknownVoiceIsAnError) {
  try {
    phonemize("hello", "xx-nope");
    FAIL() << "no exception";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'xx-nope'"), std::string::npos) << message;
    EXPECT_NE(message.find("espeak-ng-data"), std::string::npos) << message;
  }
  // The failed selection must not leave a stale voice behind.
  EXPECT_EQ(phonemize("hello world", "en"), "həlˈəʊ wˈɜːld");
}

TEST(Phonemizer, ConcurrentCallsAgree) {
  // Every thread switches voices on every call, which races inside espeak-ng without the lock.
  std::vector<int> mismatches(8, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < mismatches.size(); ++t)
    threads.emplace_back([&mismatches, t] {
      for (int repeat = 0; repeat < 50; ++repeat) {
        if (phonemize("hello world", "en") != "həlˈəʊ wˈɜːld") ++mismatches[t];
        if (phonemize("سلام", "fa") != "salˈɑm") ++mismatches[t];
      }
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(8, 0));
}

TEST(TextFrontend, PhonemesAreDecodedIpa) {
  TextConfig cfg;
  cfg.frontend = "phonemes";
  EXPECT_EQ(TextFrontend(cfg).symbols("Hello  world!", "en"), U"həlˈəʊ wˈɜːld");
  EXPECT_EQ(TextFrontend(cfg).symbols("سلام", "fa"), U"salˈɑm");
}

TEST(TextFrontend, NoPhonemesIsEmptyText) {
  TextConfig cfg;
  cfg.frontend = "phonemes";
  try {
    TextFrontend(cfg).symbols("...", "en");
    FAIL() << "no exception";
  } catch (const BadInput& e) {
    EXPECT_EQ(e.reason(), "text_empty");
  }
}

TEST(TextFrontend, UnknownVoiceIsAnErrorNotBadInput) {
  TextConfig cfg;
  cfg.frontend = "phonemes";
  try {
    TextFrontend(cfg).symbols("hello", "xx-nope");
    FAIL() << "no exception";
  } catch (const BadInput&) {
    FAIL() << "an unknown language must stop the run, not reject one utterance";
  } catch (const Error&) {
  }
}

}  // namespace
}  // namespace myxtts::text
