#include "audio/feature_pipeline.h"

#include <fmt/format.h>

#include "audio/resample.h"
#include "audio/sound_file.h"
#include "audio/waveform_ops.h"
#include "core/error.h"

namespace myxtts::audio {
namespace {

// Anything quieter than -80 dBFS at its loudest sample is treated as silence.
constexpr float kSilencePeak = 1e-4f;

}  // namespace

FeaturePipeline::FeaturePipeline(const AudioConfig& audio, double min_seconds, double max_seconds)
    : config_(audio), min_seconds_(min_seconds), max_seconds_(max_seconds), mel_(audio) {}

std::vector<float> FeaturePipeline::load_waveform(const std::string& path, int* source_rate,
                                                  int* source_channels) const {
  Waveform wave = read_audio(path, max_seconds_ * 1.5 + 1.0);  // trimming may still shorten it
  if (source_rate) *source_rate = wave.sample_rate;
  if (source_channels) *source_channels = wave.channels;
  std::vector<float> mono = downmix(wave);
  if (peak(mono) < kSilencePeak)
    throw BadInput("audio_silent", fmt::format("{}: the recording is silent (peak below -80 dBFS)",
                                               path));
  mono = resample(mono, wave.sample_rate, config_.sample_rate, config_.resample_quality);
  if (config_.trim_silence) {
    auto [begin, end] =
        non_silent_range(mono, config_.win_length, config_.hop_length, config_.trim_top_db);
    mono = std::vector<float>(mono.begin() + begin, mono.begin() + end);
  }
  const double seconds = static_cast<double>(mono.size()) / config_.sample_rate;
  // Reflect padding in the STFT needs more than n_fft/2 samples whatever min_seconds says.
  if (seconds < min_seconds_ || mono.size() <= static_cast<size_t>(config_.n_fft / 2))
    throw BadInput("too_short", fmt::format("{}: {:.3f} s of audio{} is shorter than "
                                            "data.min_duration = {} s",
                                            path, seconds, config_.trim_silence ? " after trimming" : "",
                                            min_seconds_));
  if (seconds > max_seconds_)
    throw BadInput("too_long", fmt::format("{}: {:.3f} s of audio is longer than "
                                           "data.max_duration = {} s",
                                           path, seconds, max_seconds_));
  normalize_peak(mono, static_cast<float>(config_.peak_normalize));
  return mono;
}

Features FeaturePipeline::extract(const std::string& path) const {
  Features features;
  std::vector<float> mono = load_waveform(path, &features.source_rate, &features.source_channels);
  features.seconds = static_cast<double>(mono.size()) / config_.sample_rate;
  features.mel = mel_.log_mel(mono.data(), mono.size());
  features.n_frames = mel_.frames_for(mono.size());
  return features;
}

}  // namespace myxtts::audio
