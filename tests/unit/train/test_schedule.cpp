#include <gtest/gtest.h>

#include "train/schedule.h"

namespace myxtts::train {
namespace {

TEST(Schedule, WarmsUpLinearlyThenDecaysToTheMinimum) {
  TrainConfig c;
  c.learning_rate = 1e-3, c.min_learning_rate = 1e-5, c.warmup_steps = 10, c.steps = 110;
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 0), 1e-4);
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 9), 1e-3);
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 10), 1e-3);
  EXPECT_NEAR(learning_rate_at(c, 60), (1e-3 + 1e-5) / 2, 1e-12);  // cosine half-way
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 110), 1e-5);
  c.decay = "linear";
  EXPECT_NEAR(learning_rate_at(c, 35), 1e-3 - 0.25 * (1e-3 - 1e-5), 1e-12);
  c.decay = "constant";
  EXPECT_DOUBLE_EQ(learning_rate_at(c, 100), 1e-3);
}

}  // namespace
}  // namespace myxtts::train
