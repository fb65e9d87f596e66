#pragma once
// Griffin-Lim that inverts the very log-mel of preprocessing: the mel filterbank's regularised
// pseudo-inverse gives linear magnitudes (clamped at zero), then fast Griffin-Lim (momentum,
// Perraudin et al. 2013) finds phases consistent with them through the same STFT framing.
#include <vector>

#include "audio/stft.h"
#include "core/config.h"
#include "infer/vocoder.h"

namespace myxtts::infer {

class GriffinLim : public Vocoder {
 public:
  GriffinLim(const AudioConfig& audio, const SynthesisConfig& synthesis);
  std::vector<float> waveform(const std::vector<float>& log_mel, int frames) const override;
  // Linear STFT magnitudes [frames, bins] estimated from a log-mel.
  std::vector<float> magnitudes(const std::vector<float>& log_mel, int frames) const;

 private:
  AudioConfig audio_;
  SynthesisConfig synthesis_;
  audio::Stft stft_;
  std::vector<float> pseudo_inverse_;  // [bins, n_mels]
};

// ||a - b|| / ||a|| over linear magnitudes exp(log_mel): how far b's spectrum is from a's.
double spectral_convergence(const std::vector<float>& log_mel_a, const std::vector<float>& log_mel_b);

}  // namespace myxtts::infer
