#include <gtest/gtest.h>

#include <numeric>

#include "comm/gpu_info.h"
#include "comm/host_memory.h"

namespace myxtts::comm {
namespace {

TEST(HostMemory, PinnedExactlyWhenAGpuIsUsable) {
  EXPECT_EQ(host_memory_is_pinned(), gpu_count() > 0);
}

TEST(HostMemory, MessageBuffersHoldAndGrowLikeVectors) {
  MessageBuffer buffer(1 << 20);
  std::iota(buffer.begin(), buffer.end(), uint8_t{0});
  buffer.resize(3 << 20, 7);
  EXPECT_EQ(buffer[255], 255);
  EXPECT_EQ(buffer[256], 0);
  EXPECT_EQ(buffer.back(), 7);
  MessageBuffer moved = std::move(buffer);
  EXPECT_EQ(moved.size(), 3u << 20);
}

}  // namespace
}  // namespace myxtts::comm
