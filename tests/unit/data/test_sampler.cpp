#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "data/sampler.h"

namespace myxtts::data {
namespace {

std::vector<UtteranceLength> corpus(int n, int speakers = 3) {
  std::vector<UtteranceLength> items;
  uint64_t state = 99;
  for (int i = 0; i < n; ++i)
    items.push_back({i, 40 + static_cast<int32_t>(uniform_below(state, 600)),
                     10 + static_cast<int32_t>(uniform_below(state, 150)), i % speakers});
  return items;
}

BatchConfig frames_config() {
  BatchConfig c;
  c.max_frames = 4000;
  c.pad_multiple = 16;
  c.pool_batches = 8;
  return c;
}

std::vector<int32_t> flatten(const EpochPlan& plan) {
  std::vector<int32_t> all;
  for (const auto& step : plan.steps)
    for (const auto& batch : step) all.insert(all.end(), batch.utterances.begin(), batch.utterances.end());
  return all;
}

TEST(Sampler, EveryUtteranceOnceAndEveryTrainerTheSameCount) {
  auto items = corpus(1001);
  for (int trainers : {1, 2, 3, 7}) {
    EpochPlan plan = plan_epoch(items, frames_config(), 0, trainers);
    std::map<int32_t, int> seen;
    for (const auto& step : plan.steps) ASSERT_EQ(step.size(), static_cast<size_t>(trainers));
    for (int32_t i : flatten(plan)) ++seen[i];
    EXPECT_EQ(seen.size(), items.size()) << trainers << " trainers";
    int extra = 0;
    for (auto& [i, count] : seen) extra += count - 1;
    // Only the equal-count rule duplicates, and only to fill the last step.
    EXPECT_LT(plan.duplicated_batches, trainers);
    EXPECT_EQ(extra == 0, plan.duplicated_batches == 0) << trainers << " trainers";
  }
}

TEST(Sampler, DeterministicPerSeedAndEpoch) {
  auto items = corpus(500);
  auto a = flatten(plan_epoch(items, frames_config(), 3, 2));
  EXPECT_EQ(a, flatten(plan_epoch(items, frames_config(), 3, 2)));
  EXPECT_NE(a, flatten(plan_epoch(items, frames_config(), 4, 2)));
  BatchConfig other = frames_config();
  other.seed = 7;
  EXPECT_NE(a, flatten(plan_epoch(items, other, 3, 2)));
}

TEST(Sampler, BatchesRespectTheFrameBudgetAndPadding) {
  auto items = corpus(800);
  std::map<int32_t, int32_t> frames;
  for (const auto& u : items) frames[u.index] = u.frames;
  BatchConfig c = frames_config();
  for (const auto& step : plan_epoch(items, c, 1, 2).steps)
    for (const auto& b : step) {
      int32_t longest = 0;
      for (int32_t i : b.utterances) longest = std::max(longest, frames[i]);
      EXPECT_EQ(b.padded_frames % c.pad_multiple, 0);
      EXPECT_GE(b.padded_frames, longest);
      EXPECT_LT(b.padded_frames - longest, c.pad_multiple);
      if (b.utterances.size() > 1) EXPECT_LE(b.utterances.size() * b.padded_frames, static_cast<size_t>(c.max_frames));
    }
}

TEST(Sampler, FixedSizeBatches) {
  BatchConfig c;
  c.mode = "fixed";
  c.size = 8;
  EpochPlan plan = plan_epoch(corpus(100), c, 0, 1);
  ASSERT_EQ(plan.steps.size(), 13u);  // 12 full batches and one of 4
  size_t full = 0;
  for (const auto& step : plan.steps) full += step[0].utterances.size() == 8;
  EXPECT_EQ(full, 12u);
}

TEST(Sampler, StepsGroupBatchesOfNeighbouringLengths) {
  EpochPlan plan = plan_epoch(corpus(2000), frames_config(), 0, 4);
  std::vector<std::pair<int32_t, int32_t>> ranges;  // (shortest, longest) padded length per step
  for (const auto& step : plan.steps) {
    auto [lo, hi] = std::minmax_element(step.begin(), step.end(), [](const auto& a, const auto& b) {
      return a.padded_frames < b.padded_frames;
    });
    ranges.emplace_back(lo->padded_frames, hi->padded_frames);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) EXPECT_LE(ranges[i - 1].second, ranges[i].first);
}

TEST(Sampler, ReferencesComeFromTheSameSpeakerAndAnotherUtterance) {
  auto items = corpus(300, 4);
  items.push_back({300, 100, 20, 9});  // a speaker with a single utterance
  BatchConfig c = frames_config();
  std::map<int32_t, UtteranceLength> by_index;
  for (const auto& u : items) by_index[u.index] = u;
  for (const auto& step : plan_epoch(items, c, 0, 1).steps)
    for (const auto& b : step)
      for (size_t k = 0; k < b.utterances.size(); ++k) {
        const auto& u = by_index[b.utterances[k]];
        const auto& r = by_index[b.reference[k]];
        EXPECT_EQ(u.speaker, r.speaker);
        if (u.speaker != 9) EXPECT_NE(u.index, r.index);
        EXPECT_GE(b.reference_offset[k], 0);
        EXPECT_LE(b.reference_offset[k], std::max(0, r.frames - c.reference_frames));
      }
}

}  // namespace
}  // namespace myxtts::data
