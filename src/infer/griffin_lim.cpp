#include "infer/griffin_lim.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>

#include "audio/mel.h"
#include "core/error.h"

namespace myxtts::infer {
namespace {

// P = A^T (A A^T + ridge I)^-1 for the filterbank A [m, b], by Cholesky of the small m x m matrix.
std::vector<float> regularised_pseudo_inverse(const std::vector<float>& a, int m, int b) {
  std::vector<double> g(static_cast<size_t>(m) * m, 0.0);
  double trace = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      double dot = 0;
      for (int k = 0; k < b; ++k) dot += static_cast<double>(a[i * b + k]) * a[j * b + k];
      g[i * m + j] = dot;
      if (i == j) trace += dot;
    }
  const double ridge = 1e-4 * trace / m;  // keeps nearly parallel narrow filters solvable
  for (int i = 0; i < m; ++i) g[i * m + i] += ridge;
  for (int j = 0; j < m; ++j) {  // in-place Cholesky: g = L L^T, L in the lower triangle
    for (int k = 0; k < j; ++k) g[j * m + j] -= g[j * m + k] * g[j * m + k];
    if (g[j * m + j] <= 0) throw Error("the mel filterbank cannot be inverted (a band is empty)");
    g[j * m + j] = std::sqrt(g[j * m + j]);
    for (int i = j + 1; i < m; ++i) {
      for (int k = 0; k < j; ++k) g[i * m + j] -= g[i * m + k] * g[j * m + k];
      g[i * m + j] /= g[j * m + j];
    }
  }
  // Row k of P solves G p = a[:, k] (G symmetric): forward then backward substitution.
  std::vector<float> p(static_cast<size_t>(b) * m);
  std::vector<double> y(m);
  for (int k = 0; k < b; ++k) {
    for (int i = 0; i < m; ++i) {
      double v = a[i * b + k];
      for (int j = 0; j < i; ++j) v -= g[i * m + j] * y[j];
      y[i] = v / g[i * m + i];
    }
    for (int i = m - 1; i >= 0; --i) {
      double v = y[i];
      for (int j = i + 1; j < m; ++j) v -= g[j * m + i] * y[j];
      y[i] = v / g[i * m + i];
    }
    for (int i = 0; i < m; ++i) p[static_cast<size_t>(k) * m + i] = static_cast<float>(y[i]);
  }
  return p;
}

}  // namespace

GriffinLim::GriffinLim(const AudioConfig& audio, const SynthesisConfig& synthesis)
    : audio_(audio),
      synthesis_(synthesis),
      stft_(audio),
      pseudo_inverse_(regularised_pseudo_inverse(audio::mel_filterbank(audio), audio.n_mels, audio.n_fft / 2 + 1)) {}

std::vector<float> GriffinLim::magnitudes(const std::vector<float>& log_mel, int frames) const {
  const int m = audio_.n_mels, b = stft_.bins();
  if (log_mel.size() != static_cast<size_t>(frames) * m)
    throw Error("Griffin-Lim: the mel has " + std::to_string(log_mel.size()) + " values, expected frames x " +
                std::to_string(m) + " (audio.n_mels of the checkpoint)");
  std::vector<float> out(static_cast<size_t>(frames) * b);
  std::vector<float> mel(m);
  for (int t = 0; t < frames; ++t) {
    for (int i = 0; i < m; ++i) mel[i] = std::exp(log_mel[static_cast<size_t>(t) * m + i]);
    for (int k = 0; k < b; ++k) {
      const float* row = pseudo_inverse_.data() + static_cast<size_t>(k) * m;
      double v = 0;
      for (int i = 0; i < m; ++i) v += row[i] * mel[i];
      const double clamped = std::max(0.0, v);
      out[static_cast<size_t>(t) * b + k] = static_cast<float>(audio_.power == 2 ? std::sqrt(clamped) : clamped);
    }
  }
  return out;
}

std::vector<float> GriffinLim::waveform(const std::vector<float>& log_mel, int frames) const {
  if (static_cast<size_t>(frames - 1) * audio_.hop_length <= static_cast<size_t>(audio_.n_fft / 2))
    throw Error("Griffin-Lim: " + std::to_string(frames) + " frames are too few to synthesise; the text is too short");
  const std::vector<float> target = magnitudes(log_mel, frames);
  const size_t n = target.size();
  std::vector<std::complex<float>> angles(n), previous(n, 0.0f), rebuilt(n), spectra(n);
  std::mt19937 rng(0);  // fixed: the same mel always gives the same wav
  std::uniform_real_distribution<float> phase(0.0f, static_cast<float>(2 * M_PI));
  for (auto& a : angles) a = std::polar(1.0f, phase(rng));
  const float momentum = static_cast<float>(synthesis_.griffin_lim_momentum / (1.0 + synthesis_.griffin_lim_momentum));
  std::vector<float> samples;
  for (int iteration = 0; iteration < synthesis_.griffin_lim_iterations; ++iteration) {
    for (size_t i = 0; i < n; ++i) spectra[i] = target[i] * angles[i];
    samples = stft_.inverse(spectra, frames);
    rebuilt = stft_.forward(samples.data(), samples.size());
    for (size_t i = 0; i < n; ++i) {
      const std::complex<float> a = rebuilt[i] - momentum * previous[i];
      const float magnitude = std::abs(a);
      angles[i] = magnitude > 1e-16f ? a / magnitude : std::complex<float>(1.0f, 0.0f);
    }
    previous.swap(rebuilt);
  }
  for (size_t i = 0; i < n; ++i) spectra[i] = target[i] * angles[i];
  return stft_.inverse(spectra, frames);
}

double spectral_convergence(const std::vector<float>& a, const std::vector<float>& b) {
  const size_t n = std::min(a.size(), b.size());
  double difference = 0, reference = 0;
  for (size_t i = 0; i < n; ++i) {
    const double x = std::exp(a[i]), y = std::exp(b[i]);
    difference += (x - y) * (x - y);
    reference += x * x;
  }
  return std::sqrt(difference / reference);
}

}  // namespace myxtts::infer
