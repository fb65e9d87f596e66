#pragma once
// A "part" is the result of one work unit (chunk of utterances) of preprocessing, kept in
// <cache>/work/ until the final merge. Written to a temporary name and renamed, so a part
// that exists is complete: that is what makes preprocessing resumable.
#include <cstdint>
#include <string>
#include <vector>

namespace myxtts::data {

struct PartUtterance {
  int32_t corpus_index = 0;
  std::string symbols;  // normalised text or phonemes, UTF-8
  int32_t n_frames = 0;
  double seconds = 0.0;
};

struct PartReject {
  int32_t corpus_index = 0;
  std::string reason, detail;
};

struct Part {
  std::vector<PartUtterance> utterances;
  std::vector<float> mel;  // all utterances' frames concatenated, [frames, n_mels]
  std::vector<PartReject> rejects;
};

std::string part_path(const std::string& work_dir, int chunk);
void write_part(const std::string& path, const Part& part, int n_mels);
// with_mel = false reads only the small per-utterance records.
Part read_part(const std::string& path, bool with_mel);

}  // namespace myxtts::data
