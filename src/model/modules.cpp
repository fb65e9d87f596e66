#include "model/modules.h"

#include <cmath>

namespace myxtts::model {
torch::Tensor as_float_mask(const torch::Tensor& mask, const torch::Tensor& like) {
  return mask.unsqueeze(-1).to(like.dtype());
}

torch::Tensor conv_time(torch::nn::Conv1d& conv, const torch::Tensor& x) {
  return conv->forward(x.transpose(1, 2)).transpose(1, 2);
}

torch::nn::Conv1d same_conv(int64_t in, int64_t out, int64_t kernel) {
  return torch::nn::Conv1d(torch::nn::Conv1dOptions(in, out, kernel).padding(kernel / 2));
}

torch::Tensor sinusoidal_positions(int64_t length, int64_t dim, const torch::TensorOptions& options) {
  const torch::Tensor position = torch::arange(length, options).unsqueeze(1);
  const torch::Tensor rate =
      torch::exp(torch::arange(0, dim, 2, options) * (-std::log(10000.0) / static_cast<double>(dim)));
  torch::Tensor table = torch::zeros({length, dim}, options);
  table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
                   torch::sin(position * rate));
  table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                   torch::cos(position * rate).slice(1, 0, dim / 2));
  return table;
}

TransformerBlockImpl::TransformerBlockImpl(int64_t dim, int64_t heads, int64_t ffn_dim, int64_t kernel,
                                           double dropout)
    : attention_norm_(register_module("attention_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
      ffn_norm_(register_module("ffn_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
      attention_(register_module(
          "attention", torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(dim, heads).dropout(dropout)))),
      ffn_in_(register_module("ffn_in", same_conv(dim, ffn_dim, kernel))),
      ffn_out_(register_module("ffn_out", same_conv(ffn_dim, dim, kernel))),
      dropout_(register_module("dropout", torch::nn::Dropout(dropout))) {}

torch::Tensor TransformerBlockImpl::forward(const torch::Tensor& x, const torch::Tensor& mask) {
  const torch::Tensor m = as_float_mask(mask, x);
  const torch::Tensor h = attention_norm_->forward(x).transpose(0, 1);  // [T, B, C]
  torch::Tensor attended = std::get<0>(attention_->forward(h, h, h, /*key_padding_mask=*/mask.logical_not(),
                                                           /*need_weights=*/false));
  torch::Tensor y = (x + dropout_->forward(attended.transpose(0, 1))) * m;
  torch::Tensor f = torch::relu(conv_time(ffn_in_, ffn_norm_->forward(y) * m)) * m;
  f = conv_time(ffn_out_, dropout_->forward(f));
  return (y + dropout_->forward(f)) * m;
}

TextEncoderImpl::TextEncoderImpl(const TextEncoderOptions& o)
    : options_(o),
      tokens_(register_module("tokens", torch::nn::Embedding(o.vocabulary, o.dim))),
      languages_(register_module("languages", torch::nn::Embedding(o.languages, o.dim))),
      blocks_(register_module("blocks", torch::nn::ModuleList())),
      output_norm_(register_module("output_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.dim})))) {
  for (int64_t i = 0; i < o.layers; ++i)
    blocks_->push_back(TransformerBlock(o.dim, o.heads, o.ffn_dim, o.kernel, o.dropout));
}

torch::Tensor TextEncoderImpl::forward(const torch::Tensor& tokens, const torch::Tensor& languages,
                                       const torch::Tensor& mask) {
  torch::Tensor x = tokens_->forward(tokens) * std::sqrt(static_cast<double>(options_.dim));
  x = x + sinusoidal_positions(tokens.size(1), options_.dim, x.options()).unsqueeze(0);
  x = (x + languages_->forward(languages).unsqueeze(1)) * as_float_mask(mask, x);
  for (const auto& block : *blocks_) x = block->as<TransformerBlock>()->forward(x, mask);
  return output_norm_->forward(x) * as_float_mask(mask, x);
}

DurationPredictorImpl::DurationPredictorImpl(int64_t dim, int64_t hidden, int64_t kernel, double dropout)
    : conv1_(register_module("conv1", same_conv(dim, hidden, kernel))),
      conv2_(register_module("conv2", same_conv(hidden, hidden, kernel))),
      norm1_(register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})))),
      norm2_(register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})))),
      output_(register_module("output", torch::nn::Linear(hidden, 1))),
      dropout_(register_module("dropout", torch::nn::Dropout(dropout))) {
  // Start at ~5 frames per token (~17 symbols per second at 22 050 Hz / 256), not at zero, so even
  // a briefly trained model speaks at a plausible rate.
  torch::NoGradGuard no_grad;
  output_->bias.fill_(std::log1p(5.0));
}

torch::Tensor DurationPredictorImpl::forward(const torch::Tensor& x, const torch::Tensor& mask) {
  const torch::Tensor m = as_float_mask(mask, x);
  torch::Tensor h = dropout_->forward(norm1_->forward(torch::relu(conv_time(conv1_, x * m)))) * m;
  h = dropout_->forward(norm2_->forward(torch::relu(conv_time(conv2_, h)))) * m;
  return output_->forward(h).squeeze(-1) * mask.to(x.dtype());
}

}  // namespace myxtts::model
