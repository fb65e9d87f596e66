#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "core/error.h"
#include "core/fs.h"
#include "core/png.h"
#include "train/event_file.h"
#include "../test_support.h"

namespace myxtts::train {
namespace {

// Bit by bit, no table: deliberately not the writer's implementation.
uint32_t crc32c_bitwise(const std::string& bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    crc ^= b;
    for (int i = 0; i < 8; ++i) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
  }
  return ~crc;
}
uint32_t masked(const std::string& bytes) {
  const uint32_t crc = crc32c_bitwise(bytes);
  return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}
uint64_t le(const std::string& s, size_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s.at(pos + i));
  return v;
}

// The records of an event file; throws when framing or either CRC is wrong.
std::vector<std::string> read_records(const std::string& file) {
  std::vector<std::string> records;
  for (size_t pos = 0; pos < file.size();) {
    if (file.size() - pos < 12) throw std::runtime_error("truncated header");
    const std::string length = file.substr(pos, 8);
    if (le(file, pos + 8, 4) != masked(length)) throw std::runtime_error("length CRC");
    const uint64_t n = le(file, pos, 8);
    if (n > file.size() - pos - 16) throw std::runtime_error("truncated data");
    records.push_back(file.substr(pos + 12, n));
    if (le(file, pos + 12 + n, 4) != masked(records.back())) throw std::runtime_error("data CRC");
    pos += 16 + n;
  }
  return records;
}

// Minimal protobuf reader: field → varint value or raw bytes (fixed32/64 and length-delimited).
struct Field {
  int number;
  uint64_t varint;
  std::string bytes;
};
std::vector<Field> parse(const std::string& msg) {
  std::vector<Field> fields;
  size_t pos = 0;
  auto varint = [&] {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto b = static_cast<unsigned char>(msg.at(pos++));
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (pos < msg.size()) {
    const uint64_t key = varint();
    Field f{static_cast<int>(key >> 3), 0, {}};
    const int wire = key & 7;
    if (wire == 0) {
      f.varint = varint();
    } else {
      const size_t size = wire == 1 ? 8 : wire == 5 ? 4 : varint();
      f.bytes = msg.substr(pos, size);
      pos += size;
    }
    fields.push_back(f);
  }
  return fields;
}
const Field& field(const std::vector<Field>& fields, int number) {
  for (const Field& f : fields)
    if (f.number == number) return f;
  throw std::runtime_error("missing field " + std::to_string(number));
}
template <typename T>
T bits_as(const std::string& bytes) {
  T v;
  EXPECT_EQ(bytes.size(), sizeof v);
  std::memcpy(&v, bytes.data(), sizeof v);  // little-endian host, as the file
  return v;
}

std::string hostname() {
  char name[256] = {};
  EXPECT_EQ(::gethostname(name, sizeof name - 1), 0);
  return name;
}

TEST(EventFile, WritesFramedRecordsTensorBoardCanRead) {
  testing::TempDir dir("events");
  const std::vector<uint8_t> png = png::encode_rgb(std::vector<uint8_t>(4 * 3 * 3, 7), 4, 3);
  std::string path;
  {
    EventFileWriter writer(dir / "logs");
    path = writer.path();
    writer.add_scalar("loss/total", 1.25, 10);
    writer.add_scalar("lr", -0.5, int64_t{1} << 40);
    writer.add_image("mel", png, 4, 3, 12);
  }
  const std::string name = std::filesystem::path(path).filename().string();
  EXPECT_EQ(name.rfind("events.out.tfevents.", 0), 0u) << name;
  EXPECT_EQ(name.substr(name.size() - hostname().size() - 1), "." + hostname());

  const auto records = read_records(read_file(path));
  ASSERT_EQ(records.size(), 4u);
  const auto first = parse(records[0]);
  const double now = std::chrono::duration<double>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_NEAR(bits_as<double>(field(first, 1).bytes), now, 60.0);
  EXPECT_EQ(field(first, 2).varint, 0u);
  EXPECT_EQ(field(first, 3).bytes, "brain.Event:2");

  const std::tuple<std::string, uint64_t, float> scalars[] = {{"loss/total", 10, 1.25f},
                                                              {"lr", uint64_t{1} << 40, -0.5f}};
  for (int i = 0; i < 2; ++i) {
    const auto event = parse(records[1 + i]);
    EXPECT_EQ(field(event, 2).varint, std::get<1>(scalars[i]));
    const auto value = parse(field(parse(field(event, 5).bytes), 1).bytes);
    EXPECT_EQ(field(value, 1).bytes, std::get<0>(scalars[i]));
    EXPECT_EQ(bits_as<float>(field(value, 2).bytes), std::get<2>(scalars[i]));
  }

  const auto event = parse(records[3]);
  EXPECT_EQ(field(event, 2).varint, 12u);
  const auto value = parse(field(parse(field(event, 5).bytes), 1).bytes);
  EXPECT_EQ(field(value, 1).bytes, "mel");
  const auto image = parse(field(value, 4).bytes);
  EXPECT_EQ(field(image, 1).varint, 3u);  // height
  EXPECT_EQ(field(image, 2).varint, 4u);  // width
  EXPECT_EQ(field(image, 3).varint, 3u);  // RGB
  EXPECT_EQ(field(image, 4).bytes, std::string(png.begin(), png.end()));
}

TEST(EventFile, EveryCorruptedByteIsDetected) {
  testing::TempDir dir("events-corrupt");
  std::string path;
  {
    EventFileWriter writer(dir.str());
    path = writer.path();
    writer.add_scalar("loss", 0.75, 3);
  }
  const std::string good = read_file(path);
  ASSERT_EQ(read_records(good).size(), 2u);
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] ^= 0x04;
    EXPECT_THROW(read_records(bad), std::runtime_error) << "byte " << i;
  }
}

TEST(EventFile, FlushedRecordsAreVisibleWhileWriting) {
  testing::TempDir dir("events-flush");
  EventFileWriter writer(dir.str());
  writer.add_scalar("a", 1.0, 1);
  writer.flush();
  EXPECT_EQ(read_records(read_file(writer.path())).size(), 2u);
}

TEST(EventFile, WritersInTheSameSecondGetTheirOwnFiles) {
  testing::TempDir dir("events-two");
  EventFileWriter a(dir.str()), b(dir.str());
  EXPECT_NE(a.path(), b.path());
  EXPECT_EQ(read_records(read_file(b.path())).size(), 1u);
}

TEST(EventFile, UncreatableDirectoryIsAnError) {
  testing::TempDir dir("events-bad");
  testing::write_text(dir / "file", "not a directory");
  EXPECT_THROW(EventFileWriter(dir / "file/logs"), Error);
}

// The Python decoder other tests rely on must agree with this writer.
TEST(EventFile, PythonReferenceDecoderAgrees) {
  const auto script =
      std::filesystem::path(__FILE__).parent_path() / "../../reference/read_events.py";
  ASSERT_EQ(::access("/usr/bin/python3", X_OK), 0) << "/usr/bin/python3 is missing: run launch/setup.sh";
  testing::TempDir dir("events-python");
  std::string path;
  {
    EventFileWriter writer(dir.str());
    path = writer.path();
    writer.add_scalar("loss", 0.375, 5);
    writer.add_image("attention", png::encode_rgb(std::vector<uint8_t>(2 * 6 * 3), 6, 2), 6, 2, 6);
  }
  const std::string command = "/usr/bin/python3 " + script.string() + " " + path;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[256];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  EXPECT_EQ(::pclose(pipe), 0) << command;
  EXPECT_EQ(out,
            "{\"step\": 5, \"tag\": \"loss\", \"value\": 0.375}\n"
            "{\"step\": 6, \"tag\": \"attention\", \"image\": [2, 6]}\n");
}

}  // namespace
}  // namespace myxtts::train
