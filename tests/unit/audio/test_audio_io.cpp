#include <gtest/gtest.h>

#include <filesystem>

#include "audio/resample.h"
#include "audio/sound_file.h"
#include "audio/waveform_ops.h"
#include "core/error.h"
#include "../test_support.h"

namespace myxtts::audio {
namespace {

std::string reason_of(const std::string& path) {
  try {
    read_audio(path);
  } catch (const BadInput& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << "message must name the file";
    return e.reason();
  }
  return "accepted";
}

TEST(SoundFile, WriteThenReadRoundTrips) {
  testing::TempDir dir("io");
  auto tone = testing::sine(22050, 0.25, 440);
  write_wav(dir / "a.wav", tone, 22050);
  Waveform w = read_audio(dir / "a.wav");
  EXPECT_EQ(w.sample_rate, 22050);
  EXPECT_EQ(w.channels, 1);
  ASSERT_EQ(w.samples.size(), tone.size());
  for (size_t i = 0; i < tone.size(); i += 97) EXPECT_NEAR(w.samples[i], tone[i], 1.0 / 32767);
}

TEST(SoundFile, BadFilesAreRejectedWithTheirReason) {
  testing::TempDir dir("bad");
  EXPECT_EQ(reason_of(dir / "missing.wav"), "audio_missing");
  testing::write_text(dir / "garbage.wav", std::string(3000, 'x'));
  EXPECT_EQ(reason_of(dir / "garbage.wav"), "audio_unreadable");
  testing::write_text(dir / "empty.wav", "");
  EXPECT_EQ(reason_of(dir / "empty.wav"), "audio_empty");
  testing::write_pcm_wav(dir / "noframes.wav", {}, 16000);
  EXPECT_EQ(reason_of(dir / "noframes.wav"), "audio_empty");
  testing::write_pcm_wav(dir / "cut.wav", testing::sine(16000, 1.0, 300), 16000);
  std::filesystem::resize_file(dir / "cut.wav", 12000);
  EXPECT_EQ(reason_of(dir / "cut.wav"), "audio_truncated");
}

TEST(WaveformOps, DownmixAveragesChannels) {
  Waveform stereo{{1.0f, 0.0f, 0.5f, -0.5f}, 16000, 2};
  EXPECT_EQ(downmix(stereo), (std::vector<float>{0.5f, 0.0f}));
}

TEST(WaveformOps, PeakNormalisation) {
  std::vector<float> s{0.1f, -0.2f, 0.05f};
  normalize_peak(s, 0.9f);
  EXPECT_FLOAT_EQ(peak(s), 0.9f);
  EXPECT_FLOAT_EQ(s[0], 0.45f);
}

TEST(WaveformOps, NonSilentRangeFindsTheToneInsideSilence) {
  std::vector<float> s(22050, 0.0f);
  auto tone = testing::sine(22050, 0.5, 300);
  std::copy(tone.begin(), tone.end(), s.begin() + 5000);
  auto [begin, end] = non_silent_range(s, 1024, 256, 40.0);
  EXPECT_LE(begin, 5000u);
  EXPECT_GE(begin, 5000u - 1024);
  EXPECT_GE(end, 5000u + tone.size());
  EXPECT_LE(end, 5000u + tone.size() + 1024 + 256);
}

TEST(Resample, LengthAndPitchArePreserved) {
  auto tone = testing::sine(16000, 1.0, 200);
  auto out = resample(tone, 16000, 22050, "high");
  EXPECT_EQ(out.size(), 22050u);  // round(16000 * 22050 / 16000)
  int crossings = 0;
  for (size_t i = 1000; i + 1 < out.size() - 1000; ++i) crossings += (out[i] < 0) != (out[i + 1] < 0);
  // 200 Hz over (22050 - 2000) samples at 22050 Hz: 2 crossings per period.
  EXPECT_NEAR(crossings, 2 * 200 * (22050 - 2001) / 22050.0, 2);
}

}  // namespace
}  // namespace myxtts::audio
