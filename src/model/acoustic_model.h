#pragma once
// The XTTS-style acoustic model: text encoder, conditioning encoder (reference mel -> speaker/style
// latents, for voice cloning), an aligner learned without external durations (RAD-TTS), a
// duration predictor, and a parallel mel decoder that attends to the latents.
#include <torch/torch.h>

#include "core/config.h"
#include "model/batch.h"
#include "model/modules.h"

namespace myxtts::model {

// A fixed-length reference mel [B, R, M] -> latents [B, latents, dim]: convolutions, then learned
// queries attend over the frames (Perceiver-style pooling, as XTTS's conditioning encoder).
class ConditioningEncoderImpl : public torch::nn::Module {
 public:
  ConditioningEncoderImpl(const ModelConfig& config, int64_t n_mels);
  torch::Tensor forward(const torch::Tensor& reference);

 private:
  torch::nn::ModuleList convs_, norms_;
  torch::Tensor queries_;
  torch::nn::MultiheadAttention pool_{nullptr};
  torch::nn::LayerNorm output_norm_{nullptr};
};
TORCH_MODULE(ConditioningEncoder);

// Soft text-mel attention logits [B, F, T] = -||query(mel_f) - key(text_t)||^2 / aligner_dim.
class AlignerImpl : public torch::nn::Module {
 public:
  AlignerImpl(const ModelConfig& config, int64_t n_mels);
  torch::Tensor forward(const torch::Tensor& text, const torch::Tensor& mels);

 private:
  torch::nn::Sequential keys_{nullptr}, queries_{nullptr};
  double scale_;
};
TORCH_MODULE(Aligner);

// Frame states [B, F, dim] -> mel [B, F, n_mels]: Transformer blocks, each followed by
// cross-attention to the conditioning latents.
class MelDecoderImpl : public torch::nn::Module {
 public:
  MelDecoderImpl(const ModelConfig& config, int64_t n_mels);
  torch::Tensor forward(const torch::Tensor& frames, const torch::Tensor& mask, const torch::Tensor& latents);

 private:
  torch::nn::ModuleList blocks_, cross_norms_, cross_attention_;
  torch::nn::LayerNorm output_norm_{nullptr};
  torch::nn::Linear output_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(MelDecoder);

struct ModelOutput {
  torch::Tensor mel;                    // [B, F, M] predicted, zero at padding
  torch::Tensor log_durations;          // [B, T] predicted log(1 + frames), zero at padding
  torch::Tensor durations;              // [B, T] int64 hard durations from alignment search
  torch::Tensor attention_logits;       // [B, F, T] aligner logits (forward-sum objective)
  torch::Tensor attention_log_soft;     // [B, F, T] log soft attention with the prior (search, images)
  torch::Tensor text_mask, mel_mask;    // [B, T], [B, F] bool
};

struct Synthesis {
  torch::Tensor mel;        // [F, M]
  torch::Tensor durations;  // [T] int64 frames per token
};

class AcousticModelImpl : public torch::nn::Module {
 public:
  AcousticModelImpl(const ModelConfig& config, int64_t vocabulary, int64_t languages, int64_t n_mels);
  // Training: aligns text to the target mels, expands by the hard durations, decodes.
  ModelOutput forward(const Batch& batch);
  // Inference for one utterance: tokens [T], reference mel [R, M]; predicted durations x speed.
  Synthesis synthesize(const torch::Tensor& tokens, int64_t language, const torch::Tensor& reference, double speed);

 private:
  torch::Tensor conditioned_text(const torch::Tensor& tokens, const torch::Tensor& languages,
                                 const torch::Tensor& text_mask, const torch::Tensor& latents);
  TextEncoder encoder_{nullptr};
  ConditioningEncoder conditioning_{nullptr};
  torch::nn::Linear speaker_{nullptr};
  Aligner aligner_{nullptr};
  DurationPredictor duration_{nullptr};
  MelDecoder decoder_{nullptr};
  int64_t dim_;
};
TORCH_MODULE(AcousticModel);

// log Beta-binomial alignment prior [B, F, T] (RAD-TTS): favours the diagonal while the aligner
// is still learning. Zero at padding.
torch::Tensor alignment_log_prior(const torch::Tensor& text_lengths, const torch::Tensor& mel_lengths,
                                  int64_t max_frames, int64_t max_tokens);

}  // namespace myxtts::model
