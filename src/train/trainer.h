#pragma once
// A trainer rank: batches from its producer, optimiser steps in lock-step with the other
// trainers, validation passes, checkpoints and metrics. Trainer::run() reads like the recipe.
#include <torch/torch.h>

#include <optional>
#include <string>
#include <vector>

#include "comm/channel.h"
#include "comm/collectives.h"
#include "comm/layout.h"
#include "core/config.h"
#include "data/cache_reader.h"
#include "train/batch_stream.h"
#include "train/checkpoint.h"
#include "train/metrics.h"
#include "train/step.h"

namespace myxtts::train {

struct Resume {
  std::string checkpoint;  // empty: a fresh start
  CheckpointState state;
};

// Accumulates what one log interval reports.
struct IntervalClock {
  std::vector<double> step_seconds;
  double wait_at_start = 0, utterances = 0, frames = 0, padded_frames = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

class Trainer {
 public:
  Trainer(const Config& config, const comm::Layout& layout, const data::CacheReader& cache,
          comm::TrainerChannel& channel, comm::TrainerGroup& group, const Resume& resume);
  void run();

 private:
  std::vector<model::Batch> next_training_batches();
  void report_interval(const StepResult& result);
  double validate();
  void save_checkpoint(double validation_loss);
  void expect_end_of_stream();
  void check_replicas(const char* when);

  const Config& config_;
  const data::CacheReader& cache_;
  comm::TrainerGroup& group_;
  torch::Device device_;
  model::AcousticModel model_{nullptr};
  std::unique_ptr<Optimization> optimization_;
  BatchStream stream_;
  MetricsLog metrics_;
  CheckpointStore store_;
  CheckpointState state_;
  IntervalClock interval_;
  int64_t skipped_in_a_row_ = 0;
};

// The cache's identity as checkpoints record it: feature parameters and index digest.
std::string cache_identity(const data::CacheReader& cache);

}  // namespace myxtts::train
