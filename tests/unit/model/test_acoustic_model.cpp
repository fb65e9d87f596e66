#include <gtest/gtest.h>

#include "model/acoustic_model.h"
#include "model/losses.h"

namespace myxtts::model {
namespace {

ModelConfig small() {
  ModelConfig c;
  c.dim = 32, c.ffn_dim = 64, c.encoder_layers = 1, c.decoder_layers = 2, c.conditioning_layers = 2;
  c.latents = 2, c.duration_hidden = 32, c.aligner_dim = 16, c.dropout = 0.0;
  return c;
}

Batch two_utterances() {
  torch::manual_seed(3);
  Batch b;
  b.ids = torch::tensor({int64_t{0}, int64_t{1}});
  b.text_lengths = torch::tensor({int64_t{8}, int64_t{5}});
  b.mel_lengths = torch::tensor({int64_t{32}, int64_t{20}});
  b.tokens = torch::randint(4, 30, {2, 8}, torch::kLong);
  b.tokens[1].slice(0, 5).fill_(0);
  b.languages = torch::zeros({2}, torch::kLong);
  b.speakers = torch::zeros({2}, torch::kLong);
  b.mels = torch::randn({2, 32, 20}) - 4.0;
  b.mels[1].slice(0, 20).fill_(-11.5);
  b.references = torch::randn({2, 16, 20}) - 4.0;
  return b;
}

TEST(AcousticModel, PaddedTokensAndFramesChangeNoOutput) {
  torch::manual_seed(4);
  AcousticModel net(small(), 30, 1, 20);
  {
    torch::NoGradGuard no_grad;  // non-zero biases everywhere, so an unmasked pad would show
    for (auto& p : net->parameters()) p.add_(torch::randn_like(p) * 0.3);
  }
  net->eval();
  torch::NoGradGuard no_grad;
  const Batch clean = two_utterances();
  Batch noisy = clean;
  noisy.tokens = clean.tokens.clone();
  noisy.tokens[1].slice(0, 5).copy_(torch::randint(4, 30, {3}, torch::kLong));
  noisy.mels = clean.mels.clone();
  noisy.mels[1].slice(0, 20).copy_(torch::randn({12, 20}) * 10);
  const ModelOutput a = net->forward(clean), b = net->forward(noisy);
  EXPECT_TRUE(torch::equal(a.durations, b.durations));
  EXPECT_TRUE(torch::allclose(a.mel[1].slice(0, 0, 20), b.mel[1].slice(0, 0, 20), 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(a.mel[0], b.mel[0], 1e-5, 1e-5));
  EXPECT_EQ(b.mel[1].slice(0, 20).abs().sum().item<float>(), 0.0f);
  EXPECT_TRUE(torch::allclose(a.log_durations[1].slice(0, 0, 5), b.log_durations[1].slice(0, 0, 5), 1e-5, 1e-5));
  // Every loss term only sees valid positions.
  const auto sa = loss_sums(a, clean), sb = loss_sums(b, clean);
  for (int t = 0; t < kTermCount; ++t)
    EXPECT_NEAR(sa[t].item<double>(), sb[t].item<double>(), 1e-3 * (1 + std::abs(sa[t].item<double>()))) << kTermNames[t];
  // Hard durations cover every token and frame.
  EXPECT_EQ(a.durations[1].sum().item<int64_t>(), 20);
  EXPECT_EQ(a.durations[1].slice(0, 5).abs().sum().item<int64_t>(), 0);
  EXPECT_GE(a.durations[1].slice(0, 0, 5).min().item<int64_t>(), 1);
}

TEST(AcousticModel, SynthesisFollowsPredictedDurationsAndSpeed) {
  torch::manual_seed(5);
  AcousticModel net(small(), 30, 1, 20);
  net->eval();
  const torch::Tensor tokens = torch::randint(4, 30, {6}, torch::kLong), reference = torch::randn({16, 20}) - 4.0;
  const Synthesis normal = net->synthesize(tokens, 0, reference, 1.0);
  const Synthesis slow = net->synthesize(tokens, 0, reference, 3.0);
  EXPECT_EQ(normal.mel.size(0), normal.durations.sum().item<int64_t>());
  EXPECT_EQ(normal.mel.size(1), 20);
  EXPECT_GE(normal.durations.min().item<int64_t>(), 1);
  EXPECT_GT(slow.mel.size(0), normal.mel.size(0));
  // The reference voice conditions the output.
  const Synthesis other = net->synthesize(tokens, 0, reference + 2.0, 1.0);
  const int64_t frames = std::min(other.mel.size(0), normal.mel.size(0));
  EXPECT_GT((other.mel.slice(0, 0, frames) - normal.mel.slice(0, 0, frames)).abs().mean().item<double>(), 1e-3);
}

TEST(AlignmentPrior, EachFrameIsABetaBinomialOverItsTokensAndPaddingIsZero) {
  const torch::Tensor prior =
      alignment_log_prior(torch::tensor({int64_t{4}, int64_t{1}}), torch::tensor({int64_t{6}, int64_t{3}}), 7, 5);
  ASSERT_EQ(prior.sizes(), (std::vector<int64_t>{2, 7, 5}));
  // Probabilities over an utterance's tokens sum to 1 at every valid frame.
  const torch::Tensor sums = prior[0].slice(0, 0, 6).slice(1, 0, 4).exp().sum(1);
  EXPECT_TRUE(torch::allclose(sums, torch::ones({6}), 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(prior[1].slice(0, 0, 3).slice(1, 0, 1), torch::zeros({3, 1})));  // one token: log 1
  // Exact value: frame 1 of 6 over 4 tokens, token 0: BetaBinom(0; n=3, a=1, b=6) = B(1, 9) / B(1, 6) = 6/9.
  EXPECT_NEAR(prior[0][0][0].item<double>(), std::log(6.0 / 9.0), 1e-5);
  // The first frame prefers the first token, the last frame the last token.
  EXPECT_EQ(prior[0][0].slice(0, 0, 4).argmax().item<int64_t>(), 0);
  EXPECT_EQ(prior[0][5].slice(0, 0, 4).argmax().item<int64_t>(), 3);
  EXPECT_EQ(prior[0].slice(0, 6).abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(prior[0].slice(1, 4).abs().sum().item<float>(), 0.0f);
  EXPECT_TRUE(torch::isfinite(prior).all().item<bool>());
}

TEST(Losses, TermsAreNormalisedByTheStepsCounts) {
  const std::array<double, kTermCount> sums = {40.0, 80.0, 6.0, 4.0, 10.0};
  Counts counts;
  counts.mel_values = 20, counts.tokens = 3, counts.utterances = 2, counts.frames = 5;
  const auto terms = normalized_terms(sums, counts);
  EXPECT_DOUBLE_EQ(terms[kMelL1], 2.0);
  EXPECT_DOUBLE_EQ(terms[kMelL2], 4.0);
  EXPECT_DOUBLE_EQ(terms[kDuration], 2.0);
  EXPECT_DOUBLE_EQ(terms[kForwardSum], 2.0);
  EXPECT_DOUBLE_EQ(terms[kBinarization], 2.0);
  LossConfig weights;
  weights.binarization_start = 10;
  // Before binarization starts: mel_l1 + duration + forward_sum (mel_l2 weight 0 by default).
  EXPECT_DOUBLE_EQ(weighted_total(terms, weights, 9), 6.0);
  EXPECT_DOUBLE_EQ(weighted_total(terms, weights, 10), 8.0);
}

}  // namespace
}  // namespace myxtts::model
