#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "audio/mel.h"
#include "../test_support.h"

namespace myxtts::audio {
namespace {

TEST(Mel, FrameCountFollowsTheDocumentedFormula) {
  MelExtractor mel(AudioConfig{});
  for (size_t n : {513u, 1000u, 22050u, 22051u, 65536u}) {
    auto out = mel.log_mel(std::vector<float>(n, 0.1f).data(), n);
    EXPECT_EQ(mel.frames_for(n), 1 + static_cast<int>(n / 256));
    EXPECT_EQ(out.size(), static_cast<size_t>(mel.frames_for(n)) * 80);
  }
}

TEST(Mel, SilenceSitsAtTheLogFloor) {
  AudioConfig config;
  MelExtractor mel(config);
  std::vector<float> zeros(4096, 0.0f);
  for (float v : mel.log_mel(zeros.data(), zeros.size()))
    EXPECT_FLOAT_EQ(v, std::log(static_cast<float>(config.log_floor)));
}

TEST(Mel, ToneLandsInTheBandThatCoversItsFrequency) {
  AudioConfig config;
  MelExtractor mel(config);
  const double hz = 1000.0;
  auto wave = testing::sine(config.sample_rate, 0.5, hz);
  auto out = mel.log_mel(wave.data(), wave.size());
  const int frame = mel.frames_for(wave.size()) / 2;
  const float* row = out.data() + frame * config.n_mels;
  const int loudest = static_cast<int>(std::max_element(row, row + config.n_mels) - row);
  // The filter with the largest weight at the tone's bin must be the loudest band.
  const auto& fb = mel.filterbank();
  const int bins = config.n_fft / 2 + 1, bin = static_cast<int>(std::lround(hz * config.n_fft / config.sample_rate));
  int expected = 0;
  for (int m = 1; m < config.n_mels; ++m)
    if (fb[m * bins + bin] > fb[expected * bins + bin]) expected = m;
  EXPECT_EQ(loudest, expected);
}

TEST(Mel, SlaneyFiltersAreAreaNormalised) {
  AudioConfig config;
  auto fb = mel_filterbank(config);
  const int bins = config.n_fft / 2 + 1;
  // With Slaney normalisation, a filter's peak is 2 / (its width in Hz).
  for (int m = 10; m < 70; m += 15) {
    float peak = *std::max_element(fb.begin() + m * bins, fb.begin() + (m + 1) * bins);
    EXPECT_GT(peak, 0.0f);
    EXPECT_LT(peak, 0.05f);
  }
  config.mel_norm = "none";
  auto plain = mel_filterbank(config);
  for (int m = 10; m < 70; m += 15)
    EXPECT_LE(*std::max_element(plain.begin() + m * bins, plain.begin() + (m + 1) * bins), 1.0f);
}

}  // namespace
}  // namespace myxtts::audio
