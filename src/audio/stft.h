#pragma once
// The short-time Fourier transform of the log-mel (torch.stft with center=True, reflect padding,
// a periodic Hann window of win_length centred in n_fft), its inverse by weighted overlap-add,
// and the pieces MelExtractor shares with it, so analysis and synthesis frame audio identically.
#include <complex>
#include <vector>

#include "audio/fft.h"
#include "core/config.h"

namespace myxtts::audio {

// n_fft samples: a periodic Hann of win_length, centred, zero elsewhere.
std::vector<float> analysis_window(const AudioConfig& config);
// samples[0, n) reflect-padded by `pad` on both sides (needs n > pad).
std::vector<float> reflect_pad(const float* samples, size_t n, int pad);

class Stft {
 public:
  explicit Stft(const AudioConfig& config);
  int bins() const { return fft_.bins(); }
  // [frames, bins] row-major, frames = 1 + n / hop_length.
  std::vector<std::complex<float>> forward(const float* samples, size_t n) const;
  // Samples whose STFT is closest to `spectra` (least squares), (frames - 1) * hop_length long.
  std::vector<float> inverse(const std::vector<std::complex<float>>& spectra, int frames) const;

 private:
  int n_fft_, hop_;
  RealFft fft_;
  std::vector<float> window_;
};

}  // namespace myxtts::audio
