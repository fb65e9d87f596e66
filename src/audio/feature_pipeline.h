#pragma once
// Audio file -> training features: decode, downmix, resample, trim, normalise, log-mel.
// The only place training features are computed (preprocessing) and the same waveform path
// synthesis uses for reference audio.
#include <string>
#include <vector>

#include "audio/mel.h"
#include "core/config.h"

namespace myxtts::audio {

struct Features {
  std::vector<float> mel;  // [n_frames, n_mels]
  int n_frames = 0;
  double seconds = 0.0;    // duration after resampling and trimming
  int source_rate = 0;
  int source_channels = 0;
};

class FeaturePipeline {
 public:
  FeaturePipeline(const AudioConfig& audio, double min_seconds, double max_seconds);
  // Mono waveform at the configured rate, trimmed and normalised. Throws BadInput with the
  // reasons of read_audio and audio_silent / too_short / too_long.
  std::vector<float> load_waveform(const std::string& path, int* source_rate = nullptr,
                                   int* source_channels = nullptr) const;
  Features extract(const std::string& path) const;
  const MelExtractor& mel() const { return mel_; }

 private:
  AudioConfig config_;
  double min_seconds_, max_seconds_;
  MelExtractor mel_;
};

}  // namespace myxtts::audio
