#pragma once
// The one log-mel implementation of the project: preprocessing computes training features with
// it, and synthesis inverts its filterbank. Matches torchaudio's MelSpectrogram with
// center=True, reflect padding, a periodic Hann window, and Slaney or HTK mel filters
// (checked by tests/reference/compare_mel.py).
#include <complex>
#include <cstddef>
#include <vector>

#include "audio/fft.h"
#include "core/config.h"

namespace myxtts::audio {

class MelExtractor {
 public:
  explicit MelExtractor(const AudioConfig& config);

  // Frames produced for n samples: 1 + floor(n / hop_length).
  int frames_for(size_t n_samples) const;
  // Log-mel of n samples as [frames, n_mels] row-major. Needs n > n_fft / 2 (reflect padding).
  std::vector<float> log_mel(const float* samples, size_t n_samples) const;

  int n_mels() const { return n_mels_; }
  // Filterbank as [n_mels, n_fft/2+1] row-major (synthesis inverts it).
  const std::vector<float>& filterbank() const { return filterbank_; }

 private:
  AudioConfig config_;
  int n_mels_, n_bins_;
  RealFft fft_;
  std::vector<float> window_;      // n_fft long, Hann of win_length centred in it
  std::vector<float> filterbank_;  // [n_mels, n_bins]
  std::vector<int> band_begin_, band_end_;  // non-zero bin range of each filter
};

// Mel filters exactly as torchaudio.functional.melscale_fbanks builds them.
std::vector<float> mel_filterbank(const AudioConfig& config);

}  // namespace myxtts::audio
