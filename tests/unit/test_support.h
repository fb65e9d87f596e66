#pragma once
// Shared helpers for unit tests: a scratch directory and real audio files on disk.
#include <sndfile.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace myxtts::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("myxtts-test-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline std::vector<float> sine(int rate, double seconds, double hz, float amplitude = 0.5f) {
  std::vector<float> s(static_cast<size_t>(std::llround(rate * seconds)));
  for (size_t i = 0; i < s.size(); ++i)
    s[i] = amplitude * static_cast<float>(std::sin(2 * M_PI * hz * i / rate));
  return s;
}

// Writes interleaved float samples as 16-bit PCM WAV through libsndfile.
inline void write_pcm_wav(const std::string& path, const std::vector<float>& interleaved, int rate,
                          int channels = 1) {
  SF_INFO info{};
  info.samplerate = rate;
  info.channels = channels;
  info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
  SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
  if (!f) throw std::runtime_error("test could not create " + path);
  sf_writef_float(f, interleaved.data(), static_cast<sf_count_t>(interleaved.size() / channels));
  sf_close(f);
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace myxtts::testing
