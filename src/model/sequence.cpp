#include "model/sequence.h"

namespace myxtts::model {

torch::Tensor sequence_mask(const torch::Tensor& lengths, int64_t max_length) {
  const torch::Tensor positions = torch::arange(max_length, lengths.options().dtype(torch::kLong));
  return positions.unsqueeze(0) < lengths.to(torch::kLong).unsqueeze(1);
}

torch::Tensor length_regulate(const torch::Tensor& x, const torch::Tensor& durations, int64_t frames) {
  const torch::Tensor ends = torch::cumsum(durations.to(torch::kLong), 1);  // [B, T]
  const torch::Tensor totals = ends.select(1, ends.size(1) - 1);            // [B]
  if (frames < 0) frames = totals.max().item<int64_t>();
  // Frame f of an utterance belongs to the first token whose cumulative duration exceeds f.
  const torch::Tensor positions = torch::arange(frames, ends.options()).unsqueeze(0).expand({x.size(0), frames});
  const torch::Tensor token = torch::searchsorted(ends, positions.contiguous(), /*out_int32=*/false, /*right=*/true)
                                  .clamp_max(x.size(1) - 1);
  const torch::Tensor expanded = torch::gather(x, 1, token.unsqueeze(-1).expand({-1, -1, x.size(2)}));
  return expanded * sequence_mask(totals, frames).unsqueeze(-1).to(x.dtype());
}

}  // namespace myxtts::model
