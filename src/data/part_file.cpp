#include "data/part_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "data/h5.h"

namespace myxtts::data {

std::string part_path(const std::string& work_dir, int chunk) {
  return fmt::format("{}/part-{:06d}.h5", work_dir, chunk);
}

void write_part(const std::string& path, const Part& part, int n_mels) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  try {
    h5::Handle file = h5::create_file(tmp);
    std::vector<int32_t> index, frames, reject_index;
    std::vector<std::string> symbols, reasons, details;
    std::vector<double> seconds;
    for (const auto& u : part.utterances) {
      index.push_back(u.corpus_index);
      symbols.push_back(u.symbols);
      frames.push_back(u.n_frames);
      seconds.push_back(u.seconds);
    }
    for (const auto& r : part.rejects) {
      reject_index.push_back(r.corpus_index);
      reasons.push_back(r.reason);
      details.push_back(r.detail);
    }
    h5::write_vector(file.id(), "corpus_index", index);
    h5::write_strings(file.id(), "symbols", symbols);
    h5::write_vector(file.id(), "n_frames", frames);
    h5::write_vector(file.id(), "seconds", seconds);
    h5::write_vector(file.id(), "reject_index", reject_index);
    h5::write_strings(file.id(), "reject_reason", reasons);
    h5::write_strings(file.id(), "reject_detail", details);
    {
      h5::RowAppender mel(file.id(), "mel", n_mels, 4096);
      mel.append(part.mel.data(), static_cast<int64_t>(part.mel.size() / n_mels));
    }
    file.close_checked();
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw Error(fmt::format("cannot move {} to {}: {}", tmp, path, std::strerror(errno)));
  } catch (...) {
    std::remove(tmp.c_str());  // never leave a half-written part behind
    throw;
  }
}

Part read_part(const std::string& path, bool with_mel) try {
  h5::Handle file = h5::open_file_readonly(path);
  Part part;
  auto index = h5::read_vector<int32_t>(file.id(), "corpus_index");
  auto symbols = h5::read_strings(file.id(), "symbols");
  auto frames = h5::read_vector<int32_t>(file.id(), "n_frames");
  auto seconds = h5::read_vector<double>(file.id(), "seconds");
  for (size_t i = 0; i < index.size(); ++i)
    part.utterances.push_back({index[i], symbols[i], frames[i], seconds[i]});
  auto reject_index = h5::read_vector<int32_t>(file.id(), "reject_index");
  auto reasons = h5::read_strings(file.id(), "reject_reason");
  auto details = h5::read_strings(file.id(), "reject_detail");
  for (size_t i = 0; i < reject_index.size(); ++i)
    part.rejects.push_back({reject_index[i], reasons[i], details[i]});
  if (with_mel) {
    auto [rows, cols] = h5::shape(file.id(), "mel");
    h5::Handle dataset(MYX_H5(H5Dopen2(file.id(), "mel", H5P_DEFAULT)));
    part.mel = h5::read_rows(dataset.id(), 0, rows, cols);
  }
  return part;
} catch (const Error& e) {
  throw Error(fmt::format("work unit {} is damaged ({}); delete it and run the same command again "
                          "to redo that unit",
                          path, e.what()));
}

}  // namespace myxtts::data
