#pragma once
// The learning-rate curve: linear warm-up, then cosine or linear decay to train.min_learning_rate
// at train.steps (or constant). A pure function of the step, so a resumed run follows the curve
// it left.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/config.h"

namespace myxtts::train {

// Learning rate of optimiser step `step` (0-based).
inline double learning_rate_at(const TrainConfig& c, int64_t step) {
  if (step < c.warmup_steps) return c.learning_rate * static_cast<double>(step + 1) / c.warmup_steps;
  if (c.decay == "constant") return c.learning_rate;
  const double span = std::max<int64_t>(1, c.steps - c.warmup_steps);
  const double progress = std::min(1.0, static_cast<double>(step - c.warmup_steps) / span);
  const double shape = c.decay == "cosine" ? 0.5 * (1.0 + std::cos(M_PI * progress)) : 1.0 - progress;
  return c.min_learning_rate + (c.learning_rate - c.min_learning_rate) * shape;
}

}  // namespace myxtts::train
