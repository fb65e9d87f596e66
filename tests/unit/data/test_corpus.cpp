#include <gtest/gtest.h>

#include <map>

#include "core/error.h"
#include "data/corpus.h"
#include "../test_support.h"

namespace myxtts::data {
namespace {

std::map<std::string, std::string> reasons_by_source_line(const Corpus& c) {
  std::map<std::string, std::string> out;
  for (const auto& r : c.rejects) out[r.source.substr(r.source.rfind(':') + 1)] = r.reason;
  return out;
}

TEST(Corpus, LJSpeechPrefersTheNormalizedColumn) {
  testing::TempDir dir("lj");
  testing::write_text(dir / "metadata.csv", "LJ001|Dr. Smith, 1885.|Doctor Smith, eighteen eighty-five.\nLJ002|Plain text.|\n");
  Corpus c = read_corpus(dir.str(), "auto", DataConfig{});
  EXPECT_EQ(c.format, "ljspeech");
  ASSERT_EQ(c.utterances.size(), 2u);
  EXPECT_EQ(c.utterances[0].text, "Doctor Smith, eighteen eighty-five.");
  EXPECT_EQ(c.utterances[1].text, "Plain text.");
  EXPECT_EQ(c.utterances[0].audio_path, dir / "wavs/LJ001.wav");
  EXPECT_EQ(c.utterances[0].speaker, "speaker0");
  EXPECT_EQ(c.utterances[0].language, "en");
  EXPECT_EQ(c.utterances[0].source, dir / "metadata.csv:1");
}

TEST(Corpus, CrlfAndByteOrderMarkAreToleratedAndCounted) {
  testing::TempDir dir("crlf");
  testing::write_text(dir / "metadata.csv", "\xEF\xBB\xBFLJ001|one|one\r\nLJ002|two|two\r\n");
  Corpus c = read_corpus(dir.str(), "ljspeech", DataConfig{});
  ASSERT_EQ(c.utterances.size(), 2u);
  EXPECT_EQ(c.utterances[0].id, "LJ001");
  EXPECT_EQ(c.utterances[1].text, "two");
  EXPECT_TRUE(c.had_bom);
  EXPECT_EQ(c.crlf_lines, 2);
}

TEST(Corpus, BadLinesBecomeRejectsWithReasons) {
  testing::TempDir dir("badlines");
  testing::write_text(dir / "metadata.csv",
                      "A|fine|fine\n"
                      "just-one-field\n"
                      "B|x|y|z\n"
                      "C|bad \xC3\x28 utf8|\n"
                      "D|   |\n"
                      "A|duplicate|\n"
                      "../../etc/passwd|escape|\n"
                      "\n"
                      "E|also fine|\n");
  Corpus c = read_corpus(dir.str(), "auto", DataConfig{});
  ASSERT_EQ(c.utterances.size(), 2u);
  EXPECT_EQ(c.utterances[1].id, "E");
  auto reasons = reasons_by_source_line(c);
  EXPECT_EQ(reasons, (std::map<std::string, std::string>{{"2", "malformed_line"},
                                                         {"3", "malformed_line"},
                                                         {"4", "invalid_utf8"},
                                                         {"5", "text_empty"},
                                                         {"6", "duplicate_id"},
                                                         {"7", "path_outside_corpus"}}));
  for (const auto& r : c.rejects) EXPECT_NE(r.detail.find(dir / "metadata.csv:"), std::string::npos);
}

TEST(Corpus, ManifestColumnsPathsAndEscapes) {
  testing::TempDir dir("manifest");
  testing::write_text(dir / "list.tsv",
                      "path\ttext\tspeaker\tlanguage\n"
                      "audio/a.wav\tsalam\tali\tfa\n"
                      "b.flac\thello\t\t\n"
                      "../outside.wav\tno\tx\ten\n"
                      "/etc/passwd\tno\tx\ten\n"
                      "c.wav\ttoo\tmany\tfields\there\n");
  DataConfig data;
  data.default_speaker = "narrator";
  Corpus c = read_corpus(dir / "list.tsv", "auto", data);
  EXPECT_EQ(c.format, "manifest");
  ASSERT_EQ(c.utterances.size(), 2u);
  EXPECT_EQ(c.utterances[0].id, "audio/a");
  EXPECT_EQ(c.utterances[0].audio_path, dir / "audio/a.wav");
  EXPECT_EQ(c.utterances[0].speaker, "ali");
  EXPECT_EQ(c.utterances[0].language, "fa");
  EXPECT_EQ(c.utterances[1].speaker, "narrator");
  EXPECT_EQ(c.utterances[1].language, "en");
  auto reasons = reasons_by_source_line(c);
  EXPECT_EQ(reasons, (std::map<std::string, std::string>{{"4", "path_outside_corpus"},
                                                         {"5", "path_outside_corpus"},
                                                         {"6", "malformed_line"}}));
}

TEST(Corpus, FatalProblemsAreErrorsThatSayWhatToDo) {
  testing::TempDir dir("fatal");
  EXPECT_THROW(read_corpus(dir / "nope", "auto", DataConfig{}), Error);
  EXPECT_THROW(read_corpus(dir.str(), "auto", DataConfig{}), Error);  // no listing inside
  testing::write_text(dir / "m.tsv", "file\ttranscript\n");
  try {
    read_corpus(dir / "m.tsv", "manifest", DataConfig{});
    FAIL() << "a header without path/text must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no 'path' column"), std::string::npos) << e.what();
  }
}

TEST(Corpus, FingerprintChangesWithTheListing) {
  testing::TempDir dir("fp");
  testing::write_text(dir / "metadata.csv", "A|one|\n");
  std::string first = corpus_fingerprint(read_corpus(dir.str(), "auto", DataConfig{}));
  EXPECT_EQ(first, corpus_fingerprint(read_corpus(dir.str(), "auto", DataConfig{})));
  testing::write_text(dir / "metadata.csv", "A|two|\n");
  EXPECT_NE(first, corpus_fingerprint(read_corpus(dir.str(), "auto", DataConfig{})));
}

}  // namespace
}  // namespace myxtts::data
