#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "audio/mel.h"
#include "audio/stft.h"
#include "infer/griffin_lim.h"

namespace myxtts::infer {
namespace {

// One second of a voiced, speech-like signal: harmonics of a gliding pitch with a formant-ish
// envelope, plus a little noise.
std::vector<float> voiced_signal(int rate) {
  std::vector<float> x(rate);
  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.005f);
  double phase = 0;
  for (int i = 0; i < rate; ++i) {
    const double t = static_cast<double>(i) / rate, f0 = 120 + 60 * t;
    phase += 2 * M_PI * f0 / rate;
    double v = 0;
    for (int h = 1; h <= 20; ++h) v += std::exp(-std::pow((h * f0 - 700) / 600, 2)) * std::sin(h * phase) / h;
    x[i] = static_cast<float>(0.5 * v) + noise(rng);
  }
  return x;
}

TEST(Stft, InverseOfForwardRestoresTheSignal) {
  const AudioConfig audio;
  const audio::Stft stft(audio);
  const std::vector<float> x = voiced_signal(audio.sample_rate);
  const int frames = 1 + static_cast<int>(x.size() / audio.hop_length);
  const std::vector<float> back = stft.inverse(stft.forward(x.data(), x.size()), frames);
  ASSERT_EQ(back.size(), static_cast<size_t>(frames - 1) * audio.hop_length);
  for (size_t i = 0; i < back.size(); ++i) ASSERT_NEAR(back[i], x[i], 1e-4) << "sample " << i;
}

TEST(GriffinLim, RoundTripThroughTheMelKeepsTheSpectrum) {
  const AudioConfig audio;
  SynthesisConfig synthesis;
  const audio::MelExtractor mel(audio);
  const std::vector<float> x = voiced_signal(audio.sample_rate);
  const std::vector<float> original = mel.log_mel(x.data(), x.size());
  const int frames = static_cast<int>(original.size() / audio.n_mels);
  const GriffinLim vocoder(audio, synthesis);
  const std::vector<float> wav = vocoder.waveform(original, frames);
  const std::vector<float> again = mel.log_mel(wav.data(), wav.size());
  ASSERT_EQ(again.size() / audio.n_mels, static_cast<size_t>(frames));
  const double converged = spectral_convergence(original, again);
  // Bound: wav -> mel -> wav -> mel loses no more than this share of the mel spectrum.
  EXPECT_LT(converged, 0.2);
  // And iterations matter: a single pass is much further off.
  synthesis.griffin_lim_iterations = 1;
  const std::vector<float> rough = GriffinLim(audio, synthesis).waveform(original, frames);
  EXPECT_GT(spectral_convergence(original, mel.log_mel(rough.data(), rough.size())), converged * 1.5);
  std::printf("spectral convergence: %.4f after %d iterations\n", converged, SynthesisConfig{}.griffin_lim_iterations);
}

}  // namespace
}  // namespace myxtts::infer
