#pragma once
#include <string>
#include <vector>

namespace myxtts::audio {

// Resamples mono audio with libsoxr. Output length: round(n * to_rate / from_rate).
// quality: quick | low | medium | high | very_high (AudioConfig::resample_quality).
std::vector<float> resample(const std::vector<float>& mono, int from_rate, int to_rate,
                            const std::string& quality);

}  // namespace myxtts::audio
