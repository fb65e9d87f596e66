#pragma once
// `myxtts bench step`: under mpirun with the training layout, in one run, the trainers' step time
// on batches streamed by the producer (the full pipeline) and on the very same batches held in
// memory (the resident-data bound), and the producer's assembly rate against the rate one
// trainer consumes. Rank 0 prints the report.
#include "core/config.h"

namespace myxtts::train {

void run_step_benchmark(const Config& config, int warmup_steps, int steps);

}  // namespace myxtts::train
