#pragma once
// Audio file I/O through libsndfile: every format it reads, any channel count.
#include <string>
#include <vector>

namespace myxtts::audio {

struct Waveform {
  std::vector<float> samples;  // interleaved when channels > 1
  int sample_rate = 0;
  int channels = 1;
  size_t frames() const { return channels > 0 ? samples.size() / channels : 0; }
};

// Throws BadInput: audio_missing (no such file), audio_unreadable (not a sound file, corrupt
// header), audio_truncated (fewer frames than the header declares), audio_empty (no frames),
// audio_nonfinite (NaN or infinite samples), too_long (the header declares more than
// max_seconds: refused before decoding, so a bogus header cannot exhaust memory).
Waveform read_audio(const std::string& path, double max_seconds = 1e9);
// Mono 16-bit PCM WAV, written to a temporary name and renamed. Throws Error on failure.
void write_wav(const std::string& path, const std::vector<float>& mono, int sample_rate);

}  // namespace myxtts::audio
