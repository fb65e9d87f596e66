#pragma once
// Two exception types. Error: a failure the user must fix before the run can go on (bad config,
// unwritable output, failed C call); its message names the file, line or key and what to do.
// BadInput: one input item (an utterance) is unusable; callers record it as a reject with its
// reason code and carry on.
#include <stdexcept>
#include <string>

namespace myxtts {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BadInput : public Error {
 public:
  // reason: a short stable code ("audio_missing", "text_empty", ...) listed in
  // docs/cache-format.md; detail: the human-readable explanation.
  BadInput(std::string reason, const std::string& detail) : Error(detail), reason_(std::move(reason)) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

}  // namespace myxtts
