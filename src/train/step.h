#pragma once
// One optimiser step across all trainers: forward and backward over this trainer's batches with
// losses normalised by the step's global counts, gradient all-reduce in flat buckets, a
// non-finite check every trainer agrees on, clipping, warm-up/decay learning rate, AdamW.
#include <torch/torch.h>

#include <array>
#include <vector>

#include "comm/collectives.h"
#include "comm/layout.h"
#include "core/config.h"
#include "data/cache_reader.h"
#include "model/acoustic_model.h"
#include "model/losses.h"

namespace myxtts::train {

struct StepResult {
  bool applied = false;                                  // false: non-finite, skipped everywhere
  std::array<double, model::kTermCount> terms{};          // each term, over the whole step
  double loss = 0;                                        // the weighted objective
  double grad_norm = 0;                                   // before clipping
  double learning_rate = 0;
  model::Counts counts;                                   // over every trainer's batches
};

class Optimization {
 public:
  Optimization(model::AcousticModel model, const Config& config, comm::TrainerGroup& group, torch::Device device);
  // `step`: optimiser steps done before this one (sets the learning rate and binarisation start).
  StepResult step(const std::vector<model::Batch>& batches, int64_t step);
  torch::optim::AdamW& optimizer() { return optimizer_; }

 private:
  // Sums every trainer's gradients in place; returns their squared norm (a device scalar).
  torch::Tensor all_reduce_gradients();
  // Parameters grouped into flat buffers of about train.allreduce_bucket_mb, allocated once.
  struct Bucket {
    std::vector<torch::Tensor> parameters;
    torch::Tensor flat;
  };
  model::AcousticModel model_;
  const Config& config_;
  comm::TrainerGroup& group_;
  torch::Device device_;
  std::vector<torch::Tensor> parameters_;
  std::vector<Bucket> buckets_;
  torch::optim::AdamW optimizer_;
};

// Loss terms of batches without training (validation): sums and counts for this trainer, to be
// added over trainers by the caller.
struct Evaluation {
  std::array<double, model::kTermCount> sums{};
  model::Counts counts;
  double duration_abs_error = 0;     // sum over tokens of |predicted - hard| frames
  double alignment_violations = 0;   // utterances whose hard alignment skips a token or frame
  model::ModelOutput output;
};
Evaluation evaluate(model::AcousticModel& model, const model::Batch& batch, bool bf16);

// FNV-1a over every parameter's bytes, in registration order: equal digests = identical replicas.
uint64_t parameter_digest(torch::nn::Module& module);

// This rank's device in the layout: its GPU, or the CPU.
torch::Device trainer_device(const comm::Layout& layout);
// The model for the cache's vocabulary, languages and mel bands on `device`, initialised from
// train.seed: identical on every trainer.
model::AcousticModel make_model(const Config& config, const data::CacheReader& cache, const torch::Device& device);

// libtorch threads of a trainer: train.threads, or the node's cores shared among its ranks.
void set_trainer_threads(const TrainConfig& config);

// bf16 autocast applies: precision bf16, or auto on a CUDA device.
bool use_bf16(const TrainConfig& config, const torch::Device& device);

}  // namespace myxtts::train
