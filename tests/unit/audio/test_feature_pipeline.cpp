#include <gtest/gtest.h>

#include <cmath>

#include "audio/feature_pipeline.h"
#include "core/error.h"
#include "../test_support.h"

namespace myxtts::audio {
namespace {

std::string reason_of(const FeaturePipeline& p, const std::string& path) {
  try {
    p.extract(path);
  } catch (const BadInput& e) {
    return e.reason();
  }
  return "accepted";
}

TEST(FeaturePipeline, SixteenKilohertzStereoBecomesConfiguredRateMono) {
  testing::TempDir dir("pipeline");
  auto left = testing::sine(16000, 1.5, 220), right = testing::sine(16000, 1.5, 330);
  std::vector<float> stereo;
  for (size_t i = 0; i < left.size(); ++i) stereo.insert(stereo.end(), {left[i], right[i]});
  testing::write_pcm_wav(dir / "s.wav", stereo, 16000, 2);
  AudioConfig config;
  config.trim_silence = false;
  FeaturePipeline pipeline(config, 0.1, 10.0);
  Features f = pipeline.extract(dir / "s.wav");
  const long resampled = std::lround(24000 * 22050.0 / 16000);  // documented length formula
  EXPECT_EQ(f.n_frames, 1 + resampled / 256);
  EXPECT_EQ(f.mel.size(), static_cast<size_t>(f.n_frames) * 80);
  EXPECT_NEAR(f.seconds, 1.5, 1e-4);
  EXPECT_EQ(f.source_rate, 16000);
  EXPECT_EQ(f.source_channels, 2);
}

TEST(FeaturePipeline, TrimmingRemovesLeadingAndTrailingSilence) {
  testing::TempDir dir("trim");
  std::vector<float> s(22050 * 2, 0.0f);
  auto tone = testing::sine(22050, 0.5, 300);
  std::copy(tone.begin(), tone.end(), s.begin() + 22050);
  testing::write_pcm_wav(dir / "t.wav", s, 22050);
  AudioConfig config;
  FeaturePipeline pipeline(config, 0.1, 10.0);
  Features f = pipeline.extract(dir / "t.wav");
  EXPECT_GT(f.seconds, 0.5);
  EXPECT_LT(f.seconds, 0.5 + 2 * 1024.0 / 22050);
}

TEST(FeaturePipeline, SilenceAndLengthLimitsAreRejects) {
  testing::TempDir dir("limits");
  testing::write_pcm_wav(dir / "silent.wav", std::vector<float>(16000, 0.0f), 16000);
  testing::write_pcm_wav(dir / "short.wav", testing::sine(16000, 0.2, 300), 16000);
  testing::write_pcm_wav(dir / "long.wav", testing::sine(16000, 3.0, 300), 16000);
  FeaturePipeline pipeline(AudioConfig{}, 0.5, 2.0);
  EXPECT_EQ(reason_of(pipeline, dir / "silent.wav"), "audio_silent");
  EXPECT_EQ(reason_of(pipeline, dir / "short.wav"), "too_short");
  EXPECT_EQ(reason_of(pipeline, dir / "long.wav"), "too_long");
}

}  // namespace
}  // namespace myxtts::audio
