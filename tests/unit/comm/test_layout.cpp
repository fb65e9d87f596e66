#include <gtest/gtest.h>

#include "comm/layout.h"
#include "core/error.h"

namespace myxtts::comm {
namespace {

Layout plan(int np, int nodes, int gpus, LayoutConfig config = {}) {
  return plan_layout(emulated_nodes(np, nodes), gpus, config);
}

std::string error_of(int np, int nodes, int gpus, LayoutConfig config = {}) {
  try {
    plan(np, nodes, gpus, config);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Layout, CpuOnlyMachineUsesMpiFromACpuProducer) {
  Layout l = plan(3, 1, 0);
  EXPECT_EQ(l.producers, (std::vector<int>{0}));
  EXPECT_EQ(l.trainers, (std::vector<int>{1, 2}));
  EXPECT_EQ(l.ranks[0].trainers, (std::vector<int>{1, 2}));
  for (const auto& r : l.ranks) {
    EXPECT_EQ(r.gpu, -1);
    EXPECT_EQ(r.transport, Transport::kMpi);
  }
  EXPECT_EQ(l.ranks[2].producer, 0);
  EXPECT_EQ(l.ranks[2].trainer_index, 1);
}

TEST(Layout, OneGpuTrainsWhileTheCpuProduces) {
  Layout l = plan(2, 1, 1);
  EXPECT_EQ(l.ranks[0].gpu, -1);
  EXPECT_EQ(l.ranks[1].gpu, 0);
  EXPECT_EQ(l.ranks[1].transport, Transport::kMpi);
  EXPECT_NE(error_of(3, 1, 1).find("only 1 GPU(s) left for training"), std::string::npos);
}

TEST(Layout, TwoGpusGiveTheProducerGpuZeroAndNccl) {
  Layout l = plan(2, 1, 2);
  EXPECT_EQ(l.ranks[0].gpu, 0);
  EXPECT_EQ(l.ranks[1].gpu, 1);
  EXPECT_EQ(l.ranks[0].transport, Transport::kNccl);
  LayoutConfig cpu;
  cpu.producer_device = "cpu";
  Layout c = plan(3, 1, 2, cpu);  // a CPU producer leaves both GPUs to trainers
  EXPECT_EQ(c.ranks[1].gpu, 0);
  EXPECT_EQ(c.ranks[2].gpu, 1);
  EXPECT_EQ(c.ranks[1].transport, Transport::kMpi);
}

TEST(Layout, EightGpusOneProducerSevenTrainers) {
  Layout l = plan(8, 1, 8);
  EXPECT_EQ(l.trainers.size(), 7u);
  for (int r = 1; r < 8; ++r) EXPECT_EQ(l.ranks[r].gpu, r);
  EXPECT_NE(error_of(9, 1, 8).find("launch at most 8 ranks per node"), std::string::npos);
}

TEST(Layout, MultiNodeHasOneProducerPerNodeFeedingItsOwnTrainers) {
  Layout l = plan(8, 2, 4);
  EXPECT_EQ(l.producers, (std::vector<int>{0, 4}));
  EXPECT_EQ(l.ranks[4].trainers, (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(l.ranks[6].producer, 4);
  EXPECT_EQ(l.ranks[6].node, 1);
  EXPECT_EQ(l.ranks[6].local_rank, 2);
  EXPECT_EQ(l.ranks[6].gpu, 2);
  EXPECT_EQ(l.ranks[6].trainer_index, 4);
}

TEST(Layout, TwoProducersPerNodeShareTheTrainers) {
  LayoutConfig two;
  two.producers_per_node = 2;
  Layout l = plan(6, 1, 0, two);
  EXPECT_EQ(l.ranks[0].trainers, (std::vector<int>{2, 4}));
  EXPECT_EQ(l.ranks[1].trainers, (std::vector<int>{3, 5}));
  EXPECT_NE(error_of(2, 1, 0, two).find("layout.producers_per_node = 2 needs at least 3"),
            std::string::npos);
}

TEST(Layout, BadSettingsNameTheKey) {
  LayoutConfig gpu;
  gpu.producer_device = "gpu";
  EXPECT_NE(error_of(2, 1, 1, gpu).find("layout.producer_device = gpu"), std::string::npos);
  EXPECT_NE(error_of(1, 1, 0).find("needs at least 2"), std::string::npos);
  EXPECT_THROW(emulated_nodes(5, 2), Error);
}

}  // namespace
}  // namespace myxtts::comm
