#pragma once
// Mel -> waveform, behind one small interface so a neural vocoder can replace Griffin-Lim later.
#include <vector>

namespace myxtts::infer {

class Vocoder {
 public:
  virtual ~Vocoder() = default;
  // log_mel: [frames, n_mels] row-major (the cache's features). Returns samples at
  // audio.sample_rate, (frames - 1) * hop_length long.
  virtual std::vector<float> waveform(const std::vector<float>& log_mel, int frames) const = 0;
};

}  // namespace myxtts::infer
