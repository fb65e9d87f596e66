#pragma once
// Sample-level steps of the feature pipeline, kept separate so each one is tested alone.
#include <utility>
#include <vector>

#include "audio/sound_file.h"

namespace myxtts::audio {

std::vector<float> downmix(const Waveform& wave);
float peak(const std::vector<float>& samples);
// Scales so the peak is `target` (no-op for silence or target <= 0).
void normalize_peak(std::vector<float>& samples, float target);
// [begin, end) of the part louder than peak frame RMS - top_db, in frames of `frame_length`
// every `hop` samples. Returns the whole range when everything is quieter.
std::pair<size_t, size_t> non_silent_range(const std::vector<float>& samples, int frame_length,
                                           int hop, double top_db);

}  // namespace myxtts::audio
