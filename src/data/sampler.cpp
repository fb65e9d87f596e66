#include "data/sampler.h"

#include <algorithm>
#include <map>

#include "core/error.h"

namespace myxtts::data {
namespace {

// splitmix64: tiny, well mixed and specified exactly, unlike std::shuffle's distribution,
// so the batch order is the same with every standard library.
uint64_t next(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

template <class T>
void shuffle(std::vector<T>& v, uint64_t& state) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[uniform_below(state, i)]);
}

int32_t round_up(int32_t value, int32_t multiple) { return (value + multiple - 1) / multiple * multiple; }

std::vector<BatchPlan> form_batches(std::vector<UtteranceLength>& items, const BatchConfig& c) {
  std::vector<BatchPlan> batches;
  BatchPlan current;
  int32_t longest = 0, most_tokens = 0;
  auto close = [&] {
    if (current.utterances.empty()) return;
    current.padded_frames = round_up(longest, c.pad_multiple);
    current.padded_tokens = round_up(most_tokens, c.pad_multiple);
    batches.push_back(std::move(current));
    current = {};
    longest = most_tokens = 0;
  };
  for (const UtteranceLength& u : items) {
    const int32_t frames = std::max(longest, u.frames);
    const size_t count = current.utterances.size() + 1;
    const bool fits = c.mode == "fixed"
                          ? count <= static_cast<size_t>(c.size)
                          : count * round_up(frames, c.pad_multiple) <= static_cast<size_t>(c.max_frames);
    if (!fits) close();
    current.utterances.push_back(u.index);
    longest = std::max(longest, u.frames);
    most_tokens = std::max(most_tokens, u.tokens);
  }
  close();
  return batches;
}

}  // namespace

uint64_t uniform_below(uint64_t& state, uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;  // reject the biased tail
  uint64_t x;
  do x = next(state);
  while (x >= limit);
  return x % n;
}

EpochPlan plan_epoch(const std::vector<UtteranceLength>& items, const BatchConfig& config,
                     int epoch, int trainers) {
  if (items.empty()) throw Error("the sampler got no utterances: is the split empty?");
  if (trainers < 1) throw Error("the sampler needs at least one trainer");
  uint64_t state = static_cast<uint64_t>(config.seed) * 0x100000001b3ULL + static_cast<uint64_t>(epoch);

  // Shuffle, then sort pools of about pool_batches batches by length: batches of similar
  // lengths waste little padding, and the pool keeps the order random at a larger scale.
  std::vector<UtteranceLength> order(items);
  shuffle(order, state);
  int64_t total_frames = 0;
  for (const auto& u : order) total_frames += u.frames;
  const double mean_frames = static_cast<double>(total_frames) / order.size();
  const size_t per_batch = config.mode == "fixed"
                               ? config.size
                               : std::max<size_t>(1, static_cast<size_t>(config.max_frames / std::max(1.0, mean_frames)));
  const size_t pool = std::max<size_t>(1, per_batch * config.pool_batches);
  std::vector<BatchPlan> batches;
  for (size_t begin = 0; begin < order.size(); begin += pool) {
    std::vector<UtteranceLength> slice(order.begin() + begin,
                                       order.begin() + std::min(order.size(), begin + pool));
    if (config.pool_batches > 1)
      std::stable_sort(slice.begin(), slice.end(),
                       [](const UtteranceLength& a, const UtteranceLength& b) { return a.frames < b.frames; });
    for (auto& b : form_batches(slice, config)) batches.push_back(std::move(b));
  }

  // Global steps group batches of neighbouring lengths, so no trainer waits on a straggler.
  std::stable_sort(batches.begin(), batches.end(), [](const BatchPlan& a, const BatchPlan& b) {
    return a.padded_frames < b.padded_frames;
  });
  EpochPlan plan;
  for (size_t begin = 0; begin < batches.size(); begin += trainers) {
    std::vector<BatchPlan> step(batches.begin() + begin,
                                batches.begin() + std::min(batches.size(), begin + trainers));
    // Equal-count rule: the last step is topped up with copies of its own batches.
    for (size_t i = 0; step.size() < static_cast<size_t>(trainers); ++i, ++plan.duplicated_batches)
      step.push_back(step[i]);
    plan.steps.push_back(std::move(step));
  }
  shuffle(plan.steps, state);

  // Speaker references: another utterance of the same speaker when there is one.
  std::map<int32_t, std::vector<const UtteranceLength*>> by_speaker;
  std::map<int32_t, const UtteranceLength*> by_index;
  for (const auto& u : items) {
    by_speaker[u.speaker].push_back(&u);
    by_index[u.index] = &u;
  }
  for (auto& step : plan.steps)
    for (auto& batch : step)
      for (int32_t index : batch.utterances) {
        const UtteranceLength& u = *by_index.at(index);
        const auto& same = by_speaker.at(u.speaker);
        const UtteranceLength* ref = &u;
        if (same.size() > 1) {
          uint64_t pick = uniform_below(state, same.size() - 1);
          ref = same[pick];
          if (ref->index == u.index) ref = same.back();
        }
        batch.reference.push_back(ref->index);
        batch.reference_offset.push_back(
            ref->frames > config.reference_frames
                ? static_cast<int32_t>(uniform_below(state, ref->frames - config.reference_frames + 1))
                : 0);
      }
  return plan;
}

}  // namespace myxtts::data
