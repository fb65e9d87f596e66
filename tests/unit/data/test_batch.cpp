#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "data/batch_assembler.h"
#include "data/half.h"
#include "data/synthetic_cache.h"
#include "../test_support.h"

namespace myxtts::data {
namespace {

TEST(Half, KnownValuesAndRounding) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(1e6f), 0x7c00);
  EXPECT_EQ(float_to_half(1e-9f), 0x0000);
  EXPECT_EQ(float_to_half(5.9604645e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half(1.0f + 1.0f / 2048), 0x3c00);  // halfway: ties to even
  EXPECT_EQ(float_to_half(1.0f + 3.0f / 2048), 0x3c02);
  EXPECT_FLOAT_EQ(half_to_float(0x3555), 0.33325195f);
}

TEST(Half, EveryFiniteHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const uint16_t h = static_cast<uint16_t>(bits);
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) continue;  // NaN payloads need not survive
    ASSERT_EQ(float_to_half(half_to_float(h)), h) << std::hex << bits;
  }
}

class BatchAssembly : public ::testing::Test {
 protected:
  void SetUp() override {
    write_synthetic_cache(dir_ / "features.h5", Config{}, 40, 30);
    cache_ = std::make_unique<CacheReader>(dir_.str());
  }
  BatchPlan plan() const {
    BatchPlan p;
    p.utterances = {3, 17, 5};
    p.reference = {8, 9, 10};
    p.reference_offset = {0, 12, 29};
    p.padded_frames = 32;
    p.padded_tokens = 16;
    return p;
  }
  testing::TempDir dir_{"batch"};
  std::unique_ptr<CacheReader> cache_;
};

TEST_F(BatchAssembly, PayloadHoldsTheCacheRowsPaddedAsDocumented) {
  BatchConfig config;
  config.reference_frames = 8;
  BatchAssembler assembler(*cache_, config, 4);
  MessageBuffer payload;
  BatchHeader h = assembler.assemble(plan(), 2, 7, payload);
  EXPECT_EQ(h.epoch, 2);
  EXPECT_EQ(h.step, 7);
  EXPECT_EQ(h.sender, 4);
  EXPECT_EQ(h.batch_size, 3);
  EXPECT_EQ(h.max_frames, 32);
  EXPECT_EQ(payload.size(), kHeaderBytes + h.payload_bytes);
  EXPECT_EQ(read_header(payload).step, 7);
  const PayloadLayout l = payload_layout(h);
  EXPECT_EQ(payload_array<int32_t>(payload, l.ids)[1], 17);
  EXPECT_EQ(payload_array<int32_t>(payload, l.mel_lengths)[1], 30);
  EXPECT_EQ(payload_array<int32_t>(payload, l.text_lengths)[1], 4);
  const int32_t* tokens = payload_array<int32_t>(payload, l.tokens) + 16;  // second utterance
  EXPECT_EQ(std::vector<int32_t>(tokens, tokens + 6), (std::vector<int32_t>{4, 5, 4, 5, 0, 0}));
  const float* mels = payload_array<float>(payload, l.mels) + 1 * 32 * 80;
  const std::vector<float> expected = cache_->mel(17);
  EXPECT_EQ(std::vector<float>(mels, mels + 30 * 80), expected);
  EXPECT_FLOAT_EQ(mels[30 * 80], std::log(1e-5f));  // padded frames hold silence
  const float* ref = payload_array<float>(payload, l.reference_mels) + 2 * 8 * 80;
  EXPECT_EQ(std::vector<float>(ref, ref + 80), cache_->mel_rows(10, 29, 1));  // 1 row left
  EXPECT_FLOAT_EQ(ref[80], std::log(1e-5f));
}

TEST_F(BatchAssembly, Float16PayloadIsHalfTheMelBytes) {
  BatchConfig config;
  config.mel_dtype = "float16";
  BatchAssembler assembler(*cache_, config, 0);
  MessageBuffer payload;
  BatchHeader h = assembler.assemble(plan(), 0, 0, payload);
  const PayloadLayout l = payload_layout(h);
  const uint16_t* mels = payload_array<uint16_t>(payload, l.mels);
  const std::vector<float> expected = cache_->mel(3);
  for (size_t i = 0; i < expected.size(); i += 37)
    EXPECT_NEAR(half_to_float(mels[i]), expected[i], std::fabs(expected[i]) * 1e-3 + 1e-3);
  EXPECT_EQ(l.reference_mels - l.mels, 3u * 32 * 80 * 2);
}

TEST(BatchFormat, BadHeadersAreRefusedNamingTheSender) {
  BatchHeader h;
  h.batch_size = 2;
  h.max_tokens = h.max_frames = h.n_mels = h.reference_frames = 8;
  h.sender = 3;
  h.payload_bytes = payload_layout(h).total;
  EXPECT_NO_THROW(validate(h, h.payload_bytes));
  auto message = [&](BatchHeader bad, size_t bytes) {
    try {
      validate(bad, bytes);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(h, h.payload_bytes - 8).find("from rank 3"), std::string::npos);
  BatchHeader wrong_magic = h;
  wrong_magic.magic = 7;
  EXPECT_NE(message(wrong_magic, h.payload_bytes).find("not a MyXTTS batch"), std::string::npos);
  BatchHeader wrong_version = h;
  wrong_version.version = 99;
  EXPECT_NE(message(wrong_version, h.payload_bytes).find("wire version 99"), std::string::npos);
  BatchHeader wrong_shape = h;
  wrong_shape.max_frames = 9;
  EXPECT_NE(message(wrong_shape, h.payload_bytes).find("shape needs"), std::string::npos);
}

TEST(BatchFormat, NoticesCarryTheirText) {
  auto message = make_notice(MessageKind::kError, 3, 5, "disk on fire");
  BatchHeader h = read_header(message);
  EXPECT_EQ(h.kind, static_cast<int32_t>(MessageKind::kError));
  EXPECT_EQ(h.sender, 5);
  EXPECT_EQ(notice_text(message), "disk on fire");
  EXPECT_THROW(read_header(MessageBuffer(10)), Error);
}

}  // namespace
}  // namespace myxtts::data
