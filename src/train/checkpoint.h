#pragma once
// Checkpoints: <run>/checkpoints/step-NNNNNNNN/ with model.pt, optimizer.pt, config.yaml (the
// resolved config), vocabulary.txt and languages.txt (the cache's, one per line) and state.yaml (step, sampler cursor, trainer count, cache
// identity, validation loss). Written into step-N.partial/ and renamed once every file is on disk,
// so a crash mid-write leaves the previous checkpoint as the newest complete one. Randomness is
// re-seeded from (train.seed, step, trainer) every step, so the step restores it.
#include <torch/torch.h>

#include <optional>
#include <string>
#include <vector>

#include "core/config.h"
#include "data/cache_format.h"
#include "data/sampler.h"

namespace myxtts::train {

struct CheckpointState {
  int64_t step = 0;           // optimiser steps done
  data::Cursor cursor;        // the next training batch
  int trainers = 0;
  int64_t skipped_steps = 0;  // non-finite steps so far
  double validation_loss = -1;  // at this step; negative when none ran
  std::string cache_identity, cache_path;
  std::string parameter_digest;  // FNV-1a of every parameter (identical runs give identical digests)
};

class CheckpointStore {
 public:
  explicit CheckpointStore(const std::string& run_directory);
  // Writes a checkpoint and keeps the newest `keep` plus the one with the best validation loss.
  std::string save(const CheckpointState& state, const Config& config, const data::CacheMetadata& cache,
                   torch::nn::Module& model, torch::optim::Optimizer& optimizer, int keep) const;
  // The newest complete checkpoint, if any.
  std::optional<std::string> latest() const;
  const std::string& directory() const { return directory_; }

 private:
  std::vector<std::string> complete() const;  // oldest first
  std::string directory_;
};

CheckpointState read_state(const std::string& checkpoint);
Config read_config(const std::string& checkpoint);
std::vector<std::string> read_vocabulary(const std::string& checkpoint);
std::vector<std::string> read_languages(const std::string& checkpoint);
// A checkpoint directory as given, or the newest complete checkpoint of a run directory.
std::string resolve_checkpoint(const std::string& path);
// Loads parameters (and the optimiser state when `optimizer` is given).
void load_checkpoint(const std::string& checkpoint, torch::nn::Module& model, torch::optim::Optimizer* optimizer);

// Refuses (Error naming each difference) to resume from `checkpoint` with another cache, trainer
// count, model, batching or seed: the run would not continue the same model, data order and curve.
void require_resumable(const std::string& checkpoint, const CheckpointState& saved, const Config& config,
                       const std::string& cache_identity, int trainers);

}  // namespace myxtts::train
