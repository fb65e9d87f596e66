#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/config.h"
#include "core/error.h"

namespace myxtts {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Config, DefaultsMatchLJSpeechPractice) {
  Config c = load_config({}, {});
  EXPECT_EQ(c.audio.sample_rate, 22050);
  EXPECT_EQ(c.audio.n_fft, 1024);
  EXPECT_EQ(c.audio.hop_length, 256);
  EXPECT_EQ(c.audio.n_mels, 80);
  EXPECT_EQ(c.audio.mel_scale, "slaney");
  EXPECT_DOUBLE_EQ(c.audio.fmax, 8000.0);
}

TEST(Config, YamlThenOverridesApplyInOrder) {
  std::string path = write_temp("myxtts_cfg_a.yaml", "audio:\n  hop_length: 200\n  fmax: 7600\ndata:\n  seed: 9\n");
  Config c = load_config({path}, {"audio.hop_length=128", "text.lowercase=no"});
  EXPECT_EQ(c.audio.hop_length, 128);
  EXPECT_DOUBLE_EQ(c.audio.fmax, 7600.0);
  EXPECT_EQ(c.data.seed, 9);
  EXPECT_FALSE(c.text.lowercase);
}

TEST(Config, UnknownKeyIsNamedWithSuggestion) {
  std::string message = error_of([] { load_config({}, {"audio.sampel_rate=16000"}); });
  EXPECT_NE(message.find("unknown config key 'audio.sampel_rate'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean audio.sample_rate"), std::string::npos) << message;
}

TEST(Config, UnknownYamlKeyNamesFileAndLine) {
  std::string path = write_temp("myxtts_cfg_b.yaml", "audio:\n  n_fft: 1024\n  bogus: 3\n");
  std::string message = error_of([&] { load_config({path}, {}); });
  EXPECT_NE(message.find(path + " (line 3)"), std::string::npos) << message;
  EXPECT_NE(message.find("audio.bogus"), std::string::npos) << message;
}

TEST(Config, ValidationNamesKeyValueAndRange) {
  std::string message = error_of([] { load_config({}, {"audio.n_mels=2", "audio.mel_scale=bark"}); });
  EXPECT_NE(message.find("audio.n_mels = 2 is out of range; allowed: 8 .. 512"), std::string::npos)
      << message;
  EXPECT_NE(message.find("audio.mel_scale = 'bark' is not allowed; choose one of: slaney, htk"),
            std::string::npos)
      << message;
}

TEST(Config, CrossFieldRules) {
  EXPECT_NE(error_of([] { load_config({}, {"audio.n_fft=1000"}); }).find("power of two"), std::string::npos);
  EXPECT_NE(error_of([] { load_config({}, {"audio.sample_rate=16000", "audio.fmax=8001"}); })
                .find("audio.fmax"),
            std::string::npos);
  EXPECT_NE(error_of([] { load_config({}, {"audio.win_length=2048"}); }).find("audio.win_length"),
            std::string::npos);
}

TEST(Config, BadValueTypeIsExplained) {
  std::string message = error_of([] { load_config({}, {"audio.hop_length=fast"}); });
  EXPECT_NE(message.find("audio.hop_length: 'fast' is not an integer"), std::string::npos) << message;
}

TEST(Config, SavedYamlLoadsBackIdentically) {
  Config c = load_config({}, {"audio.fmin=55.5", "text.symbols=abc", "data.val_fraction=0.1"});
  std::string path = (std::filesystem::temp_directory_path() / "myxtts_cfg_roundtrip.yaml").string();
  save_config(c, path);
  Config back = load_config({path}, {});
  EXPECT_EQ(flatten(back), flatten(c));
}

TEST(Config, DiffNamesChangedKeys) {
  KeyValues a{{"audio.hop_length", "256"}, {"audio.n_mels", "80"}};
  KeyValues b{{"audio.hop_length", "200"}, {"audio.n_mels", "80"}};
  auto d = diff_key_values(a, b);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0], "audio.hop_length: '256' here, '200' there");
}

}  // namespace
}  // namespace myxtts
