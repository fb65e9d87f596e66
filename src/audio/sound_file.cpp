#include "audio/sound_file.h"

#include <fmt/format.h>
#include <sndfile.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "core/check.h"
#include "core/error.h"

namespace myxtts::audio {
namespace {

struct SndfileCloser {
  void operator()(SNDFILE* f) const { sf_close(f); }
};
using SndfileHandle = std::unique_ptr<SNDFILE, SndfileCloser>;

// libsndfile quietly reads what is there when the audio chunk is cut short, but notes
// "data : <declared> (should be <present>)" in its log; we treat that as a truncated file.
bool declares_more_audio_than_present(SNDFILE* file, long long* declared, long long* present) {
  char log[8192] = {0};
  sf_command(file, SFC_GET_LOG_INFO, log, sizeof log);
  for (const char* line = log; *line;) {
    if (std::sscanf(line, "data : %lld (should be %lld)", declared, present) == 2 ||
        std::sscanf(line, "SSND : %lld (should be %lld)", declared, present) == 2)
      if (*present < *declared) return true;
    const char* next = std::strchr(line, '\n');
    if (!next) break;
    line = next + 1;
  }
  return false;
}

}  // namespace

Waveform read_audio(const std::string& path, double max_seconds) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw BadInput("audio_missing", fmt::format("{}: no such audio file", path));
  if (std::filesystem::file_size(path, ec) == 0)
    throw BadInput("audio_empty", fmt::format("{}: the file is empty (0 bytes)", path));
  SF_INFO info{};
  SndfileHandle file(sf_open(path.c_str(), SFM_READ, &info));
  if (!file)
    throw BadInput("audio_unreadable",
                   fmt::format("{}: cannot decode audio: {}", path, sf_strerror(nullptr)));
  if (info.frames <= 0 || info.channels <= 0)
    throw BadInput("audio_empty", fmt::format("{}: file holds no audio frames", path));
  long long declared = 0, present = 0;
  if (declares_more_audio_than_present(file.get(), &declared, &present))
    throw BadInput("audio_truncated",
                   fmt::format("{}: the header declares {} bytes of audio but the file holds only "
                               "{}; it was cut short (interrupted copy or download?)",
                               path, declared, present));
  if (static_cast<double>(info.frames) / info.samplerate > max_seconds)
    throw BadInput("too_long", fmt::format("{}: {:.1f} s of audio is longer than data.max_duration = {} s",
                                           path, static_cast<double>(info.frames) / info.samplerate, max_seconds));
  Waveform wave;
  wave.sample_rate = info.samplerate;
  wave.channels = info.channels;
  wave.samples.resize(static_cast<size_t>(info.frames) * info.channels);
  sf_count_t got = sf_readf_float(file.get(), wave.samples.data(), info.frames);
  if (sf_error(file.get()) != SF_ERR_NO_ERROR)
    throw BadInput("audio_unreadable",
                   fmt::format("{}: decoding failed: {}", path, sf_strerror(file.get())));
  if (got < info.frames)
    throw BadInput("audio_truncated",
                   fmt::format("{}: header declares {} frames but only {} could be read; the file "
                               "is cut short",
                               path, info.frames, got));
  for (float s : wave.samples)
    if (!std::isfinite(s))
      throw BadInput("audio_nonfinite", fmt::format("{}: the audio holds NaN or infinite samples", path));
  return wave;
}

void write_wav(const std::string& path, const std::vector<float>& mono, int sample_rate) {
  std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  SF_INFO info{};
  info.samplerate = sample_rate;
  info.channels = 1;
  info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
  {
    SndfileHandle file(sf_open(tmp.c_str(), SFM_WRITE, &info));
    if (!file) MYX_FAIL_CALL("libsndfile", "sf_open", fmt::format("{}: {}", tmp, sf_strerror(nullptr)));
    sf_command(file.get(), SFC_SET_CLIPPING, nullptr, SF_TRUE);
    sf_count_t written = sf_writef_float(file.get(), mono.data(), static_cast<sf_count_t>(mono.size()));
    if (written != static_cast<sf_count_t>(mono.size()))
      MYX_FAIL_CALL("libsndfile", "sf_writef_float", fmt::format("{}: {}", tmp, sf_strerror(file.get())));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(fmt::format("cannot move {} to {}", tmp, path));
  }
}

}  // namespace myxtts::audio
