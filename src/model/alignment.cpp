#include "model/alignment.h"

#include <fmt/format.h>

#include <limits>

#include "core/error.h"
#include "model/sequence.h"

namespace myxtts::model {

std::vector<int64_t> monotonic_alignment_search(const torch::Tensor& log_probs) {
  const torch::Tensor lp = log_probs.detach().to(torch::kCPU, torch::kDouble).contiguous();
  const int64_t tokens = lp.size(0), frames = lp.size(1);
  if (tokens < 1 || frames < tokens)
    throw Error(fmt::format("monotonic alignment needs at least one frame per token, got {} frames "
                            "for {} tokens",
                            frames, tokens));
  auto p = lp.accessor<double, 2>();
  const double impossible = -std::numeric_limits<double>::infinity();
  // best[t][m]: best score of a path that puts frame m on token t.
  std::vector<std::vector<double>> best(tokens, std::vector<double>(frames, impossible));
  best[0][0] = p[0][0];
  for (int64_t m = 1; m < frames; ++m)
    for (int64_t t = 0; t <= std::min(tokens - 1, m); ++t) {
      const double stay = best[t][m - 1], advance = t > 0 ? best[t - 1][m - 1] : impossible;
      best[t][m] = p[t][m] + std::max(stay, advance);
    }
  std::vector<int64_t> durations(tokens, 0);
  for (int64_t m = frames - 1, t = tokens - 1; m >= 0; --m) {
    ++durations[t];
    if (t > 0 && (t == m || best[t - 1][m - 1] >= best[t][m - 1])) --t;
  }
  return durations;
}

torch::Tensor hard_durations(const torch::Tensor& log_probs, const torch::Tensor& text_lengths,
                             const torch::Tensor& mel_lengths) {
  const int64_t batch = log_probs.size(0);
  torch::Tensor durations = torch::zeros({batch, log_probs.size(1)}, torch::kLong);
  const torch::Tensor tl = text_lengths.to(torch::kCPU, torch::kLong), ml = mel_lengths.to(torch::kCPU, torch::kLong);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t t = tl[b].item<int64_t>(), m = ml[b].item<int64_t>();
    std::vector<int64_t> d = monotonic_alignment_search(log_probs[b].slice(0, 0, t).slice(1, 0, m));
    durations[b].slice(0, 0, t).copy_(torch::tensor(d, torch::kLong));
  }
  return durations;
}

torch::Tensor forward_sum_loss(const torch::Tensor& attention_logits, const torch::Tensor& text_lengths,
                               const torch::Tensor& mel_lengths) {
  const int64_t batch = attention_logits.size(0), tokens = attention_logits.size(2);
  const torch::Tensor tl = text_lengths.to(torch::kLong), ml = mel_lengths.to(torch::kLong);
  // Column 0 is the CTC blank, with a fixed logit of -1 as in RAD-TTS; padded tokens can never
  // be chosen, so each utterance's distribution covers its own tokens only.
  const torch::Tensor padded_token = sequence_mask(tl, tokens).logical_not().unsqueeze(1);
  const torch::Tensor logits = attention_logits.masked_fill(padded_token, -1e4);
  const torch::Tensor blank = torch::full({batch, logits.size(1), 1}, -1.0, logits.options());
  const torch::Tensor log_probs = torch::log_softmax(torch::cat({blank, logits}, 2), 2).transpose(0, 1);
  const torch::Tensor targets = torch::arange(1, tokens + 1, tl.options()).unsqueeze(0).expand({batch, tokens});
  // Frames past an utterance's length are outside its input length: no gradient reaches them.
  const torch::Tensor per_utterance = torch::ctc_loss(log_probs, targets.contiguous(), ml, tl, /*blank=*/0,
                                                      at::Reduction::None, /*zero_infinity=*/true);
  return per_utterance / tl.to(per_utterance.dtype());
}

}  // namespace myxtts::model
