#pragma once
// Building blocks of the acoustic model. Every module takes a validity mask [B, T] (true = real
// frame or token) and returns zeros at padding, and no padded value can reach a valid output:
// attention ignores padded keys, convolutions only ever see masked inputs.
#include <torch/torch.h>

namespace myxtts::model {

// mask [B, T] -> [B, T, 1] in x's dtype, to multiply [B, T, C] tensors with.
torch::Tensor as_float_mask(const torch::Tensor& mask, const torch::Tensor& like);
// [B, T, C] -> conv over time -> [B, T, C]; the input must already be zero at padding.
torch::Tensor conv_time(torch::nn::Conv1d& conv, const torch::Tensor& x);
// A convolution that keeps the length (odd kernel).
torch::nn::Conv1d same_conv(int64_t in, int64_t out, int64_t kernel);

// Sinusoidal positions [length, dim] (Transformer style).
torch::Tensor sinusoidal_positions(int64_t length, int64_t dim, const torch::TensorOptions& options);

// Pre-norm block: self-attention, then a convolutional feed-forward (kernel > 1 gives local
// context, as in FastSpeech).
class TransformerBlockImpl : public torch::nn::Module {
 public:
  TransformerBlockImpl(int64_t dim, int64_t heads, int64_t ffn_dim, int64_t kernel, double dropout);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask);  // x [B, T, C]

 private:
  torch::nn::LayerNorm attention_norm_{nullptr}, ffn_norm_{nullptr};
  torch::nn::MultiheadAttention attention_{nullptr};
  torch::nn::Conv1d ffn_in_{nullptr}, ffn_out_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(TransformerBlock);

struct TextEncoderOptions {
  int64_t vocabulary = 0, languages = 1, dim = 128, heads = 2, ffn_dim = 512, kernel = 3, layers = 4;
  double dropout = 0.1;
};

// Token + language embeddings + positions, then Transformer blocks: [B, T] ids -> [B, T, dim].
class TextEncoderImpl : public torch::nn::Module {
 public:
  explicit TextEncoderImpl(const TextEncoderOptions& options);
  torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& languages, const torch::Tensor& mask);

 private:
  TextEncoderOptions options_;
  torch::nn::Embedding tokens_{nullptr}, languages_{nullptr};
  torch::nn::ModuleList blocks_;
  torch::nn::LayerNorm output_norm_{nullptr};
};
TORCH_MODULE(TextEncoder);

// Two masked convolutions -> log(1 + frames) per token, zero at padding.
class DurationPredictorImpl : public torch::nn::Module {
 public:
  DurationPredictorImpl(int64_t dim, int64_t hidden, int64_t kernel, double dropout);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask);  // [B, T, C] -> [B, T]

 private:
  torch::nn::Conv1d conv1_{nullptr}, conv2_{nullptr};
  torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
  torch::nn::Linear output_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(DurationPredictor);

}  // namespace myxtts::model
