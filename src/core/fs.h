#pragma once
// Small filesystem helpers shared by every writer: nothing we write is ever seen half-done.
#include <string>

namespace myxtts {

// Writes to "<path>.tmp-<pid>" and renames over path (atomic on POSIX filesystems).
void write_file_atomically(const std::string& path, const std::string& content);
std::string read_file(const std::string& path);
// fsync a file or directory, so a rename that follows publishes data that is on disk.
void sync_to_disk(const std::string& path);
// Throws Error naming `what` when dir cannot be created or written.
void ensure_writable_directory(const std::string& dir, const std::string& what);

}  // namespace myxtts
