#include "audio/mel.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "audio/stft.h"
#include "core/error.h"

namespace myxtts::audio {
namespace {

double hz_to_mel(double hz, bool slaney) {
  if (!slaney) return 2595.0 * std::log10(1.0 + hz / 700.0);
  const double f_sp = 200.0 / 3.0, min_log_hz = 1000.0, min_log_mel = min_log_hz / f_sp;
  const double log_step = std::log(6.4) / 27.0;
  return hz < min_log_hz ? hz / f_sp : min_log_mel + std::log(hz / min_log_hz) / log_step;
}

double mel_to_hz(double mel, bool slaney) {
  if (!slaney) return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
  const double f_sp = 200.0 / 3.0, min_log_hz = 1000.0, min_log_mel = min_log_hz / f_sp;
  const double log_step = std::log(6.4) / 27.0;
  return mel < min_log_mel ? mel * f_sp : min_log_hz * std::exp(log_step * (mel - min_log_mel));
}

}  // namespace

std::vector<float> mel_filterbank(const AudioConfig& c) {
  const bool slaney = c.mel_scale == "slaney";
  const int n_bins = c.n_fft / 2 + 1;
  // torchaudio spaces bin frequencies over [0, sample_rate // 2] (integer division).
  const double nyquist = static_cast<double>(c.sample_rate / 2);
  std::vector<double> bin_hz(n_bins);
  for (int f = 0; f < n_bins; ++f) bin_hz[f] = nyquist * f / (n_bins - 1);
  const double m_min = hz_to_mel(c.fmin, slaney), m_max = hz_to_mel(c.fmax, slaney);
  std::vector<double> edge_hz(c.n_mels + 2);
  for (int i = 0; i < c.n_mels + 2; ++i)
    edge_hz[i] = mel_to_hz(m_min + (m_max - m_min) * i / (c.n_mels + 1), slaney);

  std::vector<float> fb(static_cast<size_t>(c.n_mels) * n_bins, 0.0f);
  for (int m = 0; m < c.n_mels; ++m) {
    const double lower = edge_hz[m], centre = edge_hz[m + 1], upper = edge_hz[m + 2];
    const double norm = c.mel_norm == "slaney" ? 2.0 / (upper - lower) : 1.0;
    for (int f = 0; f < n_bins; ++f) {
      double down = (bin_hz[f] - lower) / (centre - lower);
      double up = (upper - bin_hz[f]) / (upper - centre);
      fb[static_cast<size_t>(m) * n_bins + f] =
          static_cast<float>(std::max(0.0, std::min(down, up)) * norm);
    }
  }
  return fb;
}

MelExtractor::MelExtractor(const AudioConfig& config)
    : config_(config), n_mels_(config.n_mels), n_bins_(config.n_fft / 2 + 1), fft_(config.n_fft) {
  window_ = analysis_window(config);
  filterbank_ = mel_filterbank(config);
  band_begin_.assign(n_mels_, n_bins_);
  band_end_.assign(n_mels_, 0);
  for (int m = 0; m < n_mels_; ++m) {
    for (int f = 0; f < n_bins_; ++f)
      if (filterbank_[static_cast<size_t>(m) * n_bins_ + f] != 0.0f) {
        band_begin_[m] = std::min(band_begin_[m], f);
        band_end_[m] = f + 1;
      }
    if (band_end_[m] == 0)
      throw Error(fmt::format("audio.n_mels = {} is too many for audio.n_fft = {} between audio.fmin "
                              "and audio.fmax: mel band {} covers no FFT bin; lower n_mels or raise n_fft",
                              config.n_mels, config.n_fft, m));
  }
}

int MelExtractor::frames_for(size_t n_samples) const {
  return 1 + static_cast<int>(n_samples / config_.hop_length);
}

std::vector<float> MelExtractor::log_mel(const float* samples, size_t n) const {
  const int n_fft = config_.n_fft, pad = n_fft / 2;
  const int frames = frames_for(n);
  // Reflect-pad by n_fft/2 on both sides (torch.stft center=True, pad_mode="reflect").
  const std::vector<float> padded = reflect_pad(samples, n, pad);

  std::vector<float> out(static_cast<size_t>(frames) * n_mels_);
  std::vector<float> frame(n_fft), magnitude(n_bins_);
  std::vector<std::complex<float>> spectrum(n_bins_);
  const float floor = static_cast<float>(config_.log_floor);
  for (int t = 0; t < frames; ++t) {
    const float* src = padded.data() + static_cast<size_t>(t) * config_.hop_length;
    for (int i = 0; i < n_fft; ++i) frame[i] = src[i] * window_[i];
    fft_.forward(frame.data(), spectrum.data());
    for (int f = 0; f < n_bins_; ++f) {
      const float re = spectrum[f].real(), im = spectrum[f].imag();
      const float power = re * re + im * im;  // std::abs would call the slower hypotf
      magnitude[f] = config_.power == 2 ? power : std::sqrt(power);
    }
    float* row = out.data() + static_cast<size_t>(t) * n_mels_;
    for (int m = 0; m < n_mels_; ++m) {
      const float* weights = filterbank_.data() + static_cast<size_t>(m) * n_bins_;
      double energy = 0.0;
      for (int f = band_begin_[m]; f < band_end_[m]; ++f) energy += weights[f] * magnitude[f];
      row[m] = std::log(std::max(static_cast<float>(energy), floor));
    }
  }
  return out;
}

}  // namespace myxtts::audio
