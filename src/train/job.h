#pragma once
// `myxtts train`: every rank of the job runs this. Producers stream the schedule (training
// batches, validation passes) from the cache; trainers train. No libtorch in this header.
#include <string>

#include "core/config.h"

namespace myxtts::train {

// `resume`: "" (fresh; refused when the run directory already has checkpoints), "auto" (the
// newest complete checkpoint of train.output_dir, or fresh) or a checkpoint directory.
void run_training(const Config& config, const std::string& resume);

}  // namespace myxtts::train
