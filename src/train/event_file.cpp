#include "train/event_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

#include "core/error.h"
#include "core/fs.h"
#include "core/log.h"

namespace myxtts::train {
namespace {

// CRC32C (Castagnoli): reflected polynomial 0x82F63B78, one table lookup per byte.
constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (crc & 1 ? 0x82F63B78u : 0u);
    table[i] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

// TFRecord stores CRCs masked, so a CRC over data that itself holds CRCs stays strong.
uint32_t masked_crc32c(const std::string& bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : bytes) crc = kCrcTable[(crc ^ b) & 0xFF] ^ (crc >> 8);
  crc ^= 0xFFFFFFFFu;
  return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

// Protobuf wire format, little-endian whatever the host.
enum WireType { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}
void put_varint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>(v | 0x80));
  out.push_back(static_cast<char>(v));
}
void put_key(std::string& out, int field, WireType type) { put_varint(out, (uint64_t(field) << 3) | type); }
// int32 and int64 fields: negative values are sign-extended to 64 bits, as protobuf does.
void put_int(std::string& out, int field, int64_t v) {
  put_key(out, field, kVarint);
  put_varint(out, static_cast<uint64_t>(v));
}
void put_bytes(std::string& out, int field, const std::string& bytes) {
  put_key(out, field, kBytes);
  put_varint(out, bytes.size());
  out += bytes;
}
void put_double(std::string& out, int field, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  put_key(out, field, kFixed64);
  put_le(out, bits, 8);
}
void put_float(std::string& out, int field, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  put_key(out, field, kFixed32);
  put_le(out, bits, 4);
}

// Event{wall_time = 1, step = 2}; the caller appends the payload field.
std::string event_header(int64_t step) {
  const double now = std::chrono::duration<double>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
  std::string event;
  put_double(event, 1, now);
  put_int(event, 2, step);
  return event;
}

// Event.summary (5) = Summary{value (1) = [value]}.
std::string summary_event(int64_t step, const std::string& value) {
  std::string summary;
  put_bytes(summary, 1, value);
  std::string event = event_header(step);
  put_bytes(event, 5, summary);
  return event;
}

std::string hostname() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0)
    throw Error(fmt::format("gethostname failed: {}", std::strerror(errno)));
  return name;
}

}  // namespace

EventFileWriter::EventFileWriter(const std::string& directory) {
  ensure_writable_directory(directory, "event file directory");
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count();
  const std::string base = fmt::format("{}/events.out.tfevents.{}.{}", directory, seconds, hostname());
  // "x": exclusive creation, so two writers started in the same second get different files.
  for (int n = 0; !file_; ++n) {
    path_ = n == 0 ? base : fmt::format("{}.{}", base, n);
    file_ = std::fopen(path_.c_str(), "wbx");
    if (!file_ && errno != EEXIST)
      throw Error(fmt::format("cannot create event file {}: {}", path_, std::strerror(errno)));
  }
  try {
    std::string event = event_header(0);
    put_bytes(event, 3, "brain.Event:2");
    write_record(event);
    flush();
  } catch (...) {
    std::fclose(file_);  // the destructor will not run; the write error is the one to report
    throw;
  }
}

EventFileWriter::~EventFileWriter() {
  if (std::fflush(file_) != 0)
    log::get("events")->error("cannot write event file {}: {}", path_, std::strerror(errno));
  if (std::fclose(file_) != 0)
    log::get("events")->error("cannot close event file {}: {}", path_, std::strerror(errno));
}

void EventFileWriter::add_scalar(const std::string& tag, double value, int64_t step) {
  std::string v;
  put_bytes(v, 1, tag);
  put_float(v, 2, static_cast<float>(value));
  write_record(summary_event(step, v));
}

void EventFileWriter::add_image(const std::string& tag, const std::vector<uint8_t>& png,
                                int width, int height, int64_t step) {
  std::string image;
  put_int(image, 1, height);
  put_int(image, 2, width);
  put_int(image, 3, 3);  // colorspace: RGB
  put_bytes(image, 4, std::string(png.begin(), png.end()));
  std::string v;
  put_bytes(v, 1, tag);
  put_bytes(v, 4, image);
  write_record(summary_event(step, v));
}

void EventFileWriter::flush() {
  if (std::fflush(file_) != 0)
    throw Error(fmt::format("cannot write event file {}: {}", path_, std::strerror(errno)));
}

void EventFileWriter::write_record(const std::string& event) {
  std::string length;
  put_le(length, event.size(), 8);
  std::string record = length;
  put_le(record, masked_crc32c(length), 4);
  record += event;
  put_le(record, masked_crc32c(event), 4);
  if (std::fwrite(record.data(), 1, record.size(), file_) != record.size())
    throw Error(fmt::format("cannot write event file {}: {}", path_, std::strerror(errno)));
}

}  // namespace myxtts::train
