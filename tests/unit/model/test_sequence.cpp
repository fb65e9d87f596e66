#include <gtest/gtest.h>

#include "model/sequence.h"

namespace myxtts::model {
namespace {

TEST(SequenceMask, MarksValidPositions) {
  torch::Tensor mask = sequence_mask(torch::tensor({int64_t{2}, int64_t{0}, int64_t{4}}), 4);
  EXPECT_TRUE(torch::equal(mask, torch::tensor({1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}).view({3, 4}).to(torch::kBool)));
}

TEST(LengthRegulator, RepeatsEachTokenByItsDurationAndZeroPads) {
  torch::Tensor x = torch::tensor({1.f, 10.f, 2.f, 20.f, 3.f, 30.f, 4.f, 40.f, 5.f, 50.f, 6.f, 60.f}).view({2, 3, 2});
  torch::Tensor d = torch::tensor({int64_t{2}, int64_t{0}, int64_t{1}, int64_t{1}, int64_t{1}, int64_t{0}}).view({2, 3});
  torch::Tensor y = length_regulate(x, d);
  ASSERT_EQ(y.sizes(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_TRUE(torch::equal(y[0], torch::tensor({1.f, 10.f, 1.f, 10.f, 3.f, 30.f}).view({3, 2})));
  EXPECT_TRUE(torch::equal(y[1], torch::tensor({4.f, 40.f, 5.f, 50.f, 0.f, 0.f}).view({3, 2})));
  EXPECT_EQ(length_regulate(x, d, 5).size(1), 5);
}

TEST(LengthRegulator, GradientsReachTheTokensThatWereUsed) {
  torch::Tensor x = torch::randn({1, 3, 4}, torch::requires_grad());
  torch::Tensor d = torch::tensor({int64_t{3}, int64_t{0}, int64_t{2}}).view({1, 3});
  length_regulate(x, d).sum().backward();
  EXPECT_FLOAT_EQ(x.grad()[0][0][0].item<float>(), 3.0f);
  EXPECT_FLOAT_EQ(x.grad()[0][1][0].item<float>(), 0.0f);
  EXPECT_FLOAT_EQ(x.grad()[0][2][0].item<float>(), 2.0f);
}

}  // namespace
}  // namespace myxtts::model
