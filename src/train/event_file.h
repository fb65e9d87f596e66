#pragma once
// TensorBoard event files, written without a protobuf library: the few messages TensorBoard
// needs (Event, Summary, Summary.Value, Summary.Image) are encoded by hand, each one framed as
// a TFRecord (length, masked CRC32C of the length, data, masked CRC32C of the data).
// tests/reference/read_events.py decodes these files independently.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace myxtts::train {

// One file, appended as the run goes; TensorBoard reads it while it grows, so flush() after a
// batch of values. Not thread-safe: one writer per rank that logs.
class EventFileWriter {
 public:
  // Creates `directory` and "events.out.tfevents.<unix seconds>.<hostname>" in it (".1", ".2"…
  // appended if that name exists: an existing file is never overwritten), and writes the
  // file_version record. Throws Error naming the file.
  explicit EventFileWriter(const std::string& directory);
  // Flushes and closes; a failure here is logged, not thrown.
  ~EventFileWriter();
  EventFileWriter(const EventFileWriter&) = delete;
  EventFileWriter& operator=(const EventFileWriter&) = delete;

  // Stored as a float32 simple_value, as TensorBoard expects.
  void add_scalar(const std::string& tag, double value, int64_t step);
  // png: a whole PNG file (png::encode_rgb) of width×height RGB pixels.
  void add_image(const std::string& tag, const std::vector<uint8_t>& png, int width, int height,
                 int64_t step);
  void flush();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  void write_record(const std::string& event);
};

}  // namespace myxtts::train
