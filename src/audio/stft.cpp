#include "audio/stft.h"

#include <algorithm>
#include <cmath>

namespace myxtts::audio {

std::vector<float> analysis_window(const AudioConfig& config) {
  std::vector<float> window(config.n_fft, 0.0f);
  const int offset = (config.n_fft - config.win_length) / 2;
  for (int i = 0; i < config.win_length; ++i)  // periodic Hann, as torch.hann_window
    window[offset + i] = static_cast<float>(0.5 - 0.5 * std::cos(2.0 * M_PI * i / config.win_length));
  return window;
}

std::vector<float> reflect_pad(const float* samples, size_t n, int pad) {
  std::vector<float> padded(n + 2 * static_cast<size_t>(pad));
  for (int i = 0; i < pad; ++i) {
    padded[pad - 1 - i] = samples[i + 1];
    padded[pad + n + i] = samples[n - 2 - i];
  }
  std::copy(samples, samples + n, padded.begin() + pad);
  return padded;
}

Stft::Stft(const AudioConfig& config)
    : n_fft_(config.n_fft), hop_(config.hop_length), fft_(config.n_fft), window_(analysis_window(config)) {}

std::vector<std::complex<float>> Stft::forward(const float* samples, size_t n) const {
  const std::vector<float> padded = reflect_pad(samples, n, n_fft_ / 2);
  const int frames = 1 + static_cast<int>(n / hop_);
  std::vector<std::complex<float>> out(static_cast<size_t>(frames) * bins());
  std::vector<float> frame(n_fft_);
  for (int t = 0; t < frames; ++t) {
    const float* src = padded.data() + static_cast<size_t>(t) * hop_;
    for (int i = 0; i < n_fft_; ++i) frame[i] = src[i] * window_[i];
    fft_.forward(frame.data(), out.data() + static_cast<size_t>(t) * bins());
  }
  return out;
}

std::vector<float> Stft::inverse(const std::vector<std::complex<float>>& spectra, int frames) const {
  const int pad = n_fft_ / 2;
  const size_t padded_length = static_cast<size_t>(frames - 1) * hop_ + n_fft_;
  std::vector<float> sum(padded_length, 0.0f), weight(padded_length, 0.0f), frame(n_fft_);
  for (int t = 0; t < frames; ++t) {
    fft_.inverse(spectra.data() + static_cast<size_t>(t) * bins(), frame.data());
    float* out = sum.data() + static_cast<size_t>(t) * hop_;
    float* w = weight.data() + static_cast<size_t>(t) * hop_;
    for (int i = 0; i < n_fft_; ++i) {
      out[i] += frame[i] * window_[i];
      w[i] += window_[i] * window_[i];
    }
  }
  // Drop the centre padding; divide by the summed squared window where it is not ~0.
  std::vector<float> samples(static_cast<size_t>(frames - 1) * hop_);
  for (size_t i = 0; i < samples.size(); ++i) {
    const float w = weight[i + pad];
    samples[i] = w > 1e-8f ? sum[i + pad] / w : 0.0f;
  }
  return samples;
}

}  // namespace myxtts::audio
