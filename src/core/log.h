#pragma once
// Rank-aware logging. Every component asks for its own logger ("[preprocess] ...").
// Rank 0 prints info and above on the console; other ranks print only errors there (prefixed
// with their rank) so a failing rank is never silent. Every rank writes its full log to
// <dir>/rank-<r>.log once a directory is attached.
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace myxtts::log {

void init(int rank, int world_size, bool verbose);
// Adds a per-rank file sink; safe to call once the output location is known.
void attach_directory(const std::string& dir);
std::shared_ptr<spdlog::logger> get(const std::string& component);
// Lets this rank print info lines on the console too (the first trainer's progress line).
void speak_on_console();
int rank();
int world_size();

}  // namespace myxtts::log
