#include "model/acoustic_model.h"

#include <cmath>

#include "model/alignment.h"
#include "model/sequence.h"

namespace myxtts::model {
namespace {

// Log-mels of speech span about [-11.5, 2] (natural log, floor 1e-5): centre them for the
// convolutions that read mels, so their first layers start in a sane range.
torch::Tensor normalized_mel(const torch::Tensor& mel) { return (mel + 4.0) / 4.0; }

torch::nn::MultiheadAttention attention(const ModelConfig& c) {
  return torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(c.dim, c.heads).dropout(c.dropout));
}

torch::nn::LayerNorm layer_norm(int64_t dim) { return torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})); }

TextEncoderOptions encoder_options(const ModelConfig& c, int64_t vocabulary, int64_t languages) {
  TextEncoderOptions o;
  o.vocabulary = vocabulary;
  o.languages = languages;
  o.dim = c.dim;
  o.heads = c.heads;
  o.ffn_dim = c.ffn_dim;
  o.kernel = c.kernel;
  o.layers = c.encoder_layers;
  o.dropout = c.dropout;
  return o;
}

torch::Tensor lbeta(const torch::Tensor& a, const torch::Tensor& b) {
  return torch::lgamma(a) + torch::lgamma(b) - torch::lgamma(a + b);
}

}  // namespace

ConditioningEncoderImpl::ConditioningEncoderImpl(const ModelConfig& c, int64_t n_mels)
    : convs_(register_module("convs", torch::nn::ModuleList())),
      norms_(register_module("norms", torch::nn::ModuleList())),
      queries_(register_parameter("queries", torch::randn({c.latents, c.dim}) * 0.02)),
      pool_(register_module("pool", attention(c))),
      output_norm_(register_module("output_norm", layer_norm(c.dim))) {
  for (int i = 0; i < c.conditioning_layers; ++i) {
    convs_->push_back(same_conv(i == 0 ? n_mels : c.dim, c.dim, 3));
    norms_->push_back(layer_norm(c.dim));
  }
}

torch::Tensor ConditioningEncoderImpl::forward(const torch::Tensor& reference) {
  torch::Tensor x = normalized_mel(reference);  // [B, R, M]
  for (size_t i = 0; i < convs_->size(); ++i) {
    torch::nn::Conv1d conv = convs_->ptr<torch::nn::Conv1dImpl>(i);
    torch::Tensor y = torch::relu(conv_time(conv, x));
    x = norms_->ptr<torch::nn::LayerNormImpl>(i)->forward(i == 0 ? y : x + y);
  }
  const torch::Tensor frames = x.transpose(0, 1);  // [R, B, C]
  const torch::Tensor queries = queries_.unsqueeze(1).expand({-1, reference.size(0), -1});
  const torch::Tensor pooled = std::get<0>(pool_->forward(queries, frames, frames, {}, /*need_weights=*/false));
  return output_norm_->forward(pooled.transpose(0, 1));  // [B, L, C]
}

AlignerImpl::AlignerImpl(const ModelConfig& c, int64_t n_mels) : scale_(1.0 / c.aligner_dim) {
  const int64_t a = c.aligner_dim;
  keys_ = register_module("keys", torch::nn::Sequential(same_conv(c.dim, 2 * a, 3), torch::nn::ReLU(),
                                                        same_conv(2 * a, a, 1)));
  queries_ = register_module("queries", torch::nn::Sequential(same_conv(n_mels, 2 * a, 3), torch::nn::ReLU(),
                                                              same_conv(2 * a, a, 1), torch::nn::ReLU(),
                                                              same_conv(a, a, 1)));
}

torch::Tensor AlignerImpl::forward(const torch::Tensor& text, const torch::Tensor& mels) {
  const torch::Tensor k = keys_->forward(text.transpose(1, 2)).transpose(1, 2);     // [B, T, A]
  const torch::Tensor q = queries_->forward(mels.transpose(1, 2)).transpose(1, 2);  // [B, F, A]
  // ||q - k||^2 expanded, so no [B, F, T, A] tensor is ever built.
  const torch::Tensor distance = q.pow(2).sum(-1, true) - 2 * torch::bmm(q, k.transpose(1, 2)) +
                                 k.pow(2).sum(-1).unsqueeze(1);
  return -scale_ * distance;
}

MelDecoderImpl::MelDecoderImpl(const ModelConfig& c, int64_t n_mels)
    : blocks_(register_module("blocks", torch::nn::ModuleList())),
      cross_norms_(register_module("cross_norms", torch::nn::ModuleList())),
      cross_attention_(register_module("cross_attention", torch::nn::ModuleList())),
      output_norm_(register_module("output_norm", layer_norm(c.dim))),
      output_(register_module("output", torch::nn::Linear(c.dim, n_mels))),
      dropout_(register_module("dropout", torch::nn::Dropout(c.dropout))) {
  for (int i = 0; i < c.decoder_layers; ++i) {
    blocks_->push_back(TransformerBlock(c.dim, c.heads, c.ffn_dim, c.kernel, c.dropout));
    cross_norms_->push_back(layer_norm(c.dim));
    cross_attention_->push_back(attention(c));
  }
  // Start near the mean log-mel of speech rather than at zero (= loud noise).
  torch::NoGradGuard no_grad;
  output_->bias.fill_(-4.0);
}

torch::Tensor MelDecoderImpl::forward(const torch::Tensor& frames, const torch::Tensor& mask,
                                      const torch::Tensor& latents) {
  const torch::Tensor m = as_float_mask(mask, frames);
  const torch::Tensor memory = latents.transpose(0, 1);  // [L, B, C]
  torch::Tensor x = frames;
  for (size_t i = 0; i < blocks_->size(); ++i) {
    x = blocks_->ptr<TransformerBlockImpl>(i)->forward(x, mask);
    const torch::Tensor h = cross_norms_->ptr<torch::nn::LayerNormImpl>(i)->forward(x).transpose(0, 1);
    const torch::Tensor attended = std::get<0>(
        cross_attention_->ptr<torch::nn::MultiheadAttentionImpl>(i)->forward(h, memory, memory, {}, false));
    x = (x + dropout_->forward(attended.transpose(0, 1))) * m;
  }
  return output_->forward(output_norm_->forward(x)) * m;
}

AcousticModelImpl::AcousticModelImpl(const ModelConfig& c, int64_t vocabulary, int64_t languages, int64_t n_mels)
    : encoder_(register_module("encoder", TextEncoder(encoder_options(c, vocabulary, languages)))),
      conditioning_(register_module("conditioning", ConditioningEncoder(c, n_mels))),
      speaker_(register_module("speaker", torch::nn::Linear(c.dim, c.dim))),
      aligner_(register_module("aligner", Aligner(c, n_mels))),
      duration_(register_module("duration", DurationPredictor(c.dim, c.duration_hidden, c.kernel, c.dropout))),
      decoder_(register_module("decoder", MelDecoder(c, n_mels))),
      dim_(c.dim) {}

torch::Tensor AcousticModelImpl::conditioned_text(const torch::Tensor& tokens, const torch::Tensor& languages,
                                                  const torch::Tensor& text_mask, const torch::Tensor& latents) {
  const torch::Tensor h = encoder_->forward(tokens, languages, text_mask);
  return (h + speaker_->forward(latents.mean(1)).unsqueeze(1)) * as_float_mask(text_mask, h);
}

ModelOutput AcousticModelImpl::forward(const Batch& batch) {
  ModelOutput out;
  const int64_t max_tokens = batch.tokens.size(1), max_frames = batch.mels.size(1);
  out.text_mask = sequence_mask(batch.text_lengths, max_tokens);
  out.mel_mask = sequence_mask(batch.mel_lengths, max_frames);
  const torch::Tensor latents = conditioning_->forward(batch.references);
  const torch::Tensor text = conditioned_text(batch.tokens, batch.languages, out.text_mask, latents);

  const torch::Tensor mels = normalized_mel(batch.mels) * as_float_mask(out.mel_mask, batch.mels);
  out.attention_logits = aligner_->forward(text, mels);
  const torch::Tensor padded_token = out.text_mask.logical_not().unsqueeze(1);
  const torch::Tensor prior = alignment_log_prior(batch.text_lengths, batch.mel_lengths, max_frames, max_tokens);
  out.attention_log_soft = torch::log_softmax(
      (torch::log_softmax(out.attention_logits.masked_fill(padded_token, -1e4), 2) + prior).masked_fill(padded_token, -1e4),
      2);
  {
    torch::NoGradGuard no_grad;
    out.durations = hard_durations(out.attention_log_soft.transpose(1, 2).to(torch::kFloat), batch.text_lengths,
                                   batch.mel_lengths)
                        .to(text.device());
  }
  // Durations learn from the text without pushing their error back into the encoder (stable early).
  out.log_durations = duration_->forward(text.detach(), out.text_mask);
  const torch::Tensor positions = sinusoidal_positions(max_frames, dim_, text.options()).unsqueeze(0);
  const torch::Tensor frames =
      length_regulate(text, out.durations, max_frames) + positions * as_float_mask(out.mel_mask, text);
  out.mel = decoder_->forward(frames, out.mel_mask, latents);
  return out;
}

Synthesis AcousticModelImpl::synthesize(const torch::Tensor& tokens, int64_t language, const torch::Tensor& reference,
                                        double speed) {
  torch::NoGradGuard no_grad;
  const auto device = tokens.device();
  const torch::Tensor ids = tokens.to(torch::kLong).unsqueeze(0);
  const torch::Tensor text_mask = torch::ones_like(ids, torch::kBool);
  const torch::Tensor latents = conditioning_->forward(reference.unsqueeze(0).to(device, torch::kFloat));
  const torch::Tensor text =
      conditioned_text(ids, torch::full({1}, language, ids.options()), text_mask, latents);
  const torch::Tensor frames_per_token = torch::expm1(duration_->forward(text, text_mask)) * speed;
  const torch::Tensor durations = torch::round(frames_per_token).clamp_min(1).to(torch::kLong);
  const int64_t frames = durations.sum().item<int64_t>();
  const torch::Tensor mel_mask = torch::ones({1, frames}, ids.options().dtype(torch::kBool));
  const torch::Tensor states = length_regulate(text, durations, frames) +
                               sinusoidal_positions(frames, dim_, text.options()).unsqueeze(0);
  return {decoder_->forward(states, mel_mask, latents)[0], durations[0]};
}

torch::Tensor alignment_log_prior(const torch::Tensor& text_lengths, const torch::Tensor& mel_lengths,
                                  int64_t max_frames, int64_t max_tokens) {
  // Every utterance at once, on the lengths' device: frame i (1-based) of an utterance with F
  // frames and T tokens has a Beta-binomial over tokens k < T with n = T - 1, a = i, b = F + 1 - i.
  const auto options = text_lengths.options().dtype(torch::kDouble);
  const torch::Tensor tokens = text_lengths.to(torch::kDouble).view({-1, 1, 1});
  const torch::Tensor frames = mel_lengths.to(torch::kDouble).view({-1, 1, 1});
  const torch::Tensor k = torch::arange(max_tokens, options).view({1, 1, -1});
  const torch::Tensor a = torch::arange(1, max_frames + 1, options).view({1, -1, 1});
  const torch::Tensor valid = (k < tokens) & (a <= frames);
  // Padding gets harmless values before the log-gamma terms, then zero.
  const torch::Tensor n = tokens - 1, b = torch::where(valid, frames + 1 - a, torch::ones_like(a));
  const torch::Tensor kk = torch::where(valid, k, torch::zeros_like(k)), nn = torch::where(valid, n, kk);
  const torch::Tensor log_pmf = torch::lgamma(nn + 1) - torch::lgamma(kk + 1) - torch::lgamma(nn - kk + 1) +
                                lbeta(kk + a, nn - kk + b) - lbeta(a, b);
  return torch::where(valid, log_pmf, torch::zeros_like(log_pmf)).to(torch::kFloat);
}

}  // namespace myxtts::model
