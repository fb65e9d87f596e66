#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "data/cache_reader.h"
#include "data/synthetic_cache.h"
#include "../test_support.h"

namespace myxtts::data {
namespace {

std::string open_error(const std::string& path, const Config* expect = nullptr) {
  try {
    CacheReader reader(path);
    if (expect) reader.require_compatible(*expect);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Cache, WrittenIndexAndFeaturesReadBack) {
  testing::TempDir dir("cache");
  Config config;
  write_synthetic_cache(dir / "features.h5", config, 120, 30);
  CacheReader reader(dir.str());  // a directory resolves to its features.h5
  ASSERT_EQ(reader.index().size(), 120u);
  EXPECT_EQ(reader.total_frames(), 120 * 30);
  EXPECT_EQ(reader.n_mels(), 80);
  EXPECT_EQ(reader.index().id[7], "utt000007");
  EXPECT_EQ(reader.index().mel_offset[7], 7 * 30);
  EXPECT_EQ(reader.tokens(5), (std::vector<int32_t>{4, 5, 4, 5}));
  auto mel = reader.mel(3);
  ASSERT_EQ(mel.size(), 30u * 80);
  EXPECT_GE(*std::min_element(mel.begin(), mel.end()), -11.0f);
  EXPECT_NE(mel, reader.mel(4));
  EXPECT_EQ(reader.metadata().vocabulary.size(), 6u);
  EXPECT_EQ(reader.fingerprint().size(), 16u);
  EXPECT_NO_THROW(reader.require_compatible(config));
}

TEST(Cache, OtherFeatureParametersAreNamed) {
  testing::TempDir dir("params");
  write_synthetic_cache(dir / "features.h5", Config{}, 5, 10);
  Config other;
  other.audio.hop_length = 200;
  other.text.frontend = "phonemes";
  std::string message = open_error(dir.str(), &other);
  EXPECT_NE(message.find("audio.hop_length: '200' here, '256' there"), std::string::npos) << message;
  EXPECT_NE(message.find("text.frontend: 'phonemes' here, 'characters' there"), std::string::npos)
      << message;
}

TEST(Cache, HalfWrittenOrTruncatedFilesAreRefused) {
  testing::TempDir dir("refuse");
  EXPECT_NE(open_error(dir.str()).find("run myxtts preprocess first"), std::string::npos);
  testing::write_text(dir / "features.h5.partial", "unfinished");
  EXPECT_NE(open_error(dir.str()).find("never completed"), std::string::npos);

  write_synthetic_cache(dir / "features.h5", Config{}, 50, 40);
  std::filesystem::resize_file(dir / "features.h5", std::filesystem::file_size(dir / "features.h5") / 2);
  std::string message = open_error(dir.str());
  EXPECT_NE(message.find(dir / "features.h5"), std::string::npos) << message;
  EXPECT_NE(message.find("run myxtts preprocess again"), std::string::npos) << message;

  testing::write_text(dir / "not-hdf5.h5", "plain text");
  EXPECT_NE(open_error(dir / "not-hdf5.h5").find("not a readable HDF5 file"), std::string::npos);
}

TEST(Cache, ADamagedChunkFailsItsReadNamingTheUtterance) {
  testing::TempDir dir("damaged");
  write_synthetic_cache(dir / "features.h5", Config{}, 200, 100);  // ~6 MiB of mels
  {
    std::fstream f(dir / "features.h5", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(dir / "features.h5") / 2));
    f.write("\xde\xad\xbe\xef\xde\xad\xbe\xef", 8);
  }
  CacheReader reader(dir.str());  // the index is intact
  std::string message;
  for (size_t i = 0; i < reader.index().size() && message.empty(); ++i) {
    try {
      reader.mel(i);
    } catch (const Error& e) {
      message = e.what();
    }
  }
  EXPECT_NE(message.find("cannot be read, the file is damaged"), std::string::npos) << message;
  EXPECT_NE(message.find("run myxtts preprocess again"), std::string::npos) << message;
}

TEST(Cache, ADamagedIndexIsRefused) {
  testing::TempDir dir("index");
  write_synthetic_cache(dir / "features.h5", Config{}, 50, 10);
  std::string bytes;
  {
    std::ifstream in(dir / "features.h5", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t at = bytes.find("utt000007");  // an id in HDF5's string heap (no checksum)
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] = 'X';
  std::ofstream(dir / "features.h5", std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_NE(open_error(dir.str()).find("does not match the digest"), std::string::npos) << open_error(dir.str());
}

}  // namespace
}  // namespace myxtts::data
