#include "audio/waveform_ops.h"

#include <algorithm>
#include <cmath>

namespace myxtts::audio {

std::vector<float> downmix(const Waveform& wave) {
  if (wave.channels == 1) return wave.samples;
  const size_t frames = wave.frames();
  std::vector<float> mono(frames);
  for (size_t i = 0; i < frames; ++i) {
    double total = 0.0;
    for (int c = 0; c < wave.channels; ++c) total += wave.samples[i * wave.channels + c];
    mono[i] = static_cast<float>(total / wave.channels);
  }
  return mono;
}

float peak(const std::vector<float>& samples) {
  float p = 0.0f;
  for (float s : samples) p = std::max(p, std::fabs(s));
  return p;
}

void normalize_peak(std::vector<float>& samples, float target) {
  const float p = peak(samples);
  if (target <= 0.0f || p <= 0.0f) return;
  const float gain = target / p;
  for (float& s : samples) s *= gain;
}

std::pair<size_t, size_t> non_silent_range(const std::vector<float>& samples, int frame_length,
                                           int hop, double top_db) {
  const size_t n = samples.size();
  if (n == 0) return {0, 0};
  const size_t frames = n <= static_cast<size_t>(frame_length) ? 1 : 1 + (n - frame_length) / hop;
  std::vector<double> energy(frames);
  double loudest = 0.0;
  for (size_t t = 0; t < frames; ++t) {
    const size_t begin = t * hop, end = std::min(n, begin + frame_length);
    double sum = 0.0;
    for (size_t i = begin; i < end; ++i) sum += double(samples[i]) * samples[i];
    energy[t] = sum / frame_length;
    loudest = std::max(loudest, energy[t]);
  }
  if (loudest <= 0.0) return {0, n};
  const double threshold = loudest * std::pow(10.0, -top_db / 10.0);
  size_t first = 0, last = frames - 1;
  while (first < frames && energy[first] < threshold) ++first;
  while (last > first && energy[last] < threshold) --last;
  return {first * hop, std::min(n, last * hop + frame_length)};
}

}  // namespace myxtts::audio
