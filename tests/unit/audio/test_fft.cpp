#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "audio/fft.h"

namespace myxtts::audio {
namespace {

std::vector<std::complex<double>> naive_dft(const std::vector<float>& x) {
  const size_t n = x.size();
  std::vector<std::complex<double>> out(n / 2 + 1);
  for (size_t k = 0; k <= n / 2; ++k)
    for (size_t t = 0; t < n; ++t) out[k] += double(x[t]) * std::polar(1.0, -2 * M_PI * k * t / n);
  return out;
}

class RealFftSizes : public ::testing::TestWithParam<int> {};

TEST_P(RealFftSizes, MatchesNaiveDft) {
  const int n = GetParam();
  std::mt19937 rng(n);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> x(n);
  for (float& v : x) v = dist(rng);
  RealFft fft(n);
  std::vector<std::complex<float>> got(fft.bins());
  fft.forward(x.data(), got.data());
  auto want = naive_dft(x);
  for (int k = 0; k < fft.bins(); ++k) {
    EXPECT_NEAR(got[k].real(), want[k].real(), 1e-4 * std::sqrt(n)) << "bin " << k;
    EXPECT_NEAR(got[k].imag(), want[k].imag(), 1e-4 * std::sqrt(n)) << "bin " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(PowersOfTwo, RealFftSizes, ::testing::Values(4, 8, 64, 512, 1024, 2048));

TEST_P(RealFftSizes, InverseUndoesForward) {
  const int n = GetParam();
  RealFft fft(n);
  std::mt19937 rng(n + 1);
  std::normal_distribution<float> noise;
  std::vector<float> x(n), back(n);
  for (auto& v : x) v = noise(rng);
  std::vector<std::complex<float>> spectrum(fft.bins());
  fft.forward(x.data(), spectrum.data());
  fft.inverse(spectrum.data(), back.data());
  for (int i = 0; i < n; ++i) EXPECT_NEAR(back[i], x[i], 1e-5 * std::sqrt(n)) << "sample " << i;
}

TEST(RealFft, InverseOfOneBinIsACosine) {
  const int n = 64, bin = 5;
  RealFft fft(n);
  std::vector<std::complex<float>> spectrum(fft.bins(), 0.0f);
  spectrum[bin] = {static_cast<float>(n) / 2, 0.0f};  // amplitude 1
  std::vector<float> x(n);
  fft.inverse(spectrum.data(), x.data());
  for (int i = 0; i < n; ++i) EXPECT_NEAR(x[i], std::cos(2 * M_PI * bin * i / n), 1e-5) << "sample " << i;
}

TEST(RealFft, RejectsSizesThatAreNotPowersOfTwo) {
  EXPECT_THROW(RealFft(1000), std::invalid_argument);
  EXPECT_THROW(RealFft(2), std::invalid_argument);
}

}  // namespace
}  // namespace myxtts::audio
