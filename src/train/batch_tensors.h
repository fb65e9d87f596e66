#pragma once
// A streamed batch payload (data/batch_format.h) -> tensors on the trainer's device. The tensors
// own copies, so the channel slot can be released at once.
#include <torch/torch.h>

#include "data/batch_format.h"
#include "model/batch.h"

namespace myxtts::train {

// `payload_on_device`: the payload already lies in `device`'s memory (NCCL transport).
model::Batch to_batch(const data::BatchHeader& header, const uint8_t* payload, bool payload_on_device,
                      const torch::Device& device);

}  // namespace myxtts::train
