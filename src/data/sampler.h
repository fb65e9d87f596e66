#pragma once
// The order in which utterances reach trainers: deterministic from (seed, epoch, trainer count),
// length-bucketed, equal batch counts for every trainer, similar lengths within a global step.
#include <cstdint>
#include <vector>

#include "core/config.h"

namespace myxtts::data {

struct UtteranceLength {
  int32_t index = 0;    // row in the cache index
  int32_t frames = 0;
  int32_t tokens = 0;
  int32_t speaker = 0;
};

struct BatchPlan {
  std::vector<int32_t> utterances;       // cache rows
  std::vector<int32_t> reference;        // per utterance: cache row of its speaker reference
  std::vector<int32_t> reference_offset; // per utterance: first frame of the reference segment
  int32_t padded_frames = 0;             // max frames rounded up to batch.pad_multiple
  int32_t padded_tokens = 0;
};

// steps[s][t]: the batch trainer t trains on in global step s of the epoch.
struct EpochPlan {
  std::vector<std::vector<BatchPlan>> steps;
  int duplicated_batches = 0;  // copies added so every trainer gets the same count
};

// Where training stands: resuming regenerates the epoch's plan and skips `step` steps.
struct Cursor {
  int epoch = 0;
  int step = 0;
};

EpochPlan plan_epoch(const std::vector<UtteranceLength>& items, const BatchConfig& config,
                     int epoch, int trainers);

// Uniform integer in [0, n) from a 64-bit generator, identical on every platform.
uint64_t uniform_below(uint64_t& state, uint64_t n);

}  // namespace myxtts::data
