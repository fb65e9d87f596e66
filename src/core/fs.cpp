#include "core/fs.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace myxtts {
namespace fs = std::filesystem;

void write_file_atomically(const std::string& path, const std::string& content) {
  std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) throw Error(fmt::format("cannot write {}: {}", tmp, std::strerror(errno)));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp);
    throw Error(fmt::format("cannot move {} to {}: {}", tmp, path, ec.message()));
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void sync_to_disk(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw Error(fmt::format("cannot open {} to sync it: {}", path, std::strerror(errno)));
  const int status = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  if (status != 0) throw Error(fmt::format("cannot sync {} to disk: {}", path, std::strerror(saved)));
}

void ensure_writable_directory(const std::string& dir, const std::string& what) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw Error(fmt::format("{} {} cannot be created: {}; choose a writable location", what, dir,
                            ec.message()));
  if (::access(dir.c_str(), W_OK) != 0)
    throw Error(fmt::format("{} {} is not writable: {}; choose a writable location", what, dir,
                            std::strerror(errno)));
}

}  // namespace myxtts
