#include <gtest/gtest.h>

#include "model/modules.h"
#include "model/sequence.h"

namespace myxtts::model {
namespace {

// Freshly initialised norms have zero bias, which would hide a leak through them: perturb every
// parameter so a padded position that is not masked shows up.
void perturb(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (auto& p : module.parameters()) p.add_(torch::randn_like(p) * 0.5);
}

TextEncoderOptions small_encoder() {
  TextEncoderOptions o;
  o.vocabulary = 40;
  o.languages = 2;
  o.dim = 32;
  o.heads = 2;
  o.ffn_dim = 64;
  o.layers = 2;
  return o;
}

TEST(Padding, TextEncoderOutputsIgnorePaddedTokensAndAreZeroThere) {
  torch::manual_seed(0);
  TextEncoder encoder(small_encoder());
  perturb(*encoder);
  encoder->eval();
  const torch::Tensor lengths = torch::tensor({int64_t{7}, int64_t{4}});
  const torch::Tensor mask = sequence_mask(lengths, 7);
  torch::Tensor tokens = torch::randint(4, 40, {2, 7}, torch::kLong);
  tokens[1].slice(0, 4).fill_(0);
  const torch::Tensor languages = torch::tensor({int64_t{0}, int64_t{1}});
  torch::NoGradGuard no_grad;
  const torch::Tensor clean = encoder->forward(tokens, languages, mask);
  torch::Tensor noisy_tokens = tokens.clone();
  noisy_tokens[1].slice(0, 4).copy_(torch::randint(4, 40, {3}, torch::kLong));  // garbage in padding
  const torch::Tensor noisy = encoder->forward(noisy_tokens, languages, mask);
  EXPECT_TRUE(torch::allclose(clean[1].slice(0, 0, 4), noisy[1].slice(0, 0, 4), 1e-6, 1e-6));
  EXPECT_EQ(noisy[1].slice(0, 4).abs().sum().item<float>(), 0.0f);
  EXPECT_TRUE(torch::allclose(clean[0], noisy[0]));
}

TEST(Padding, TransformerBlockIgnoresPaddedFrames) {
  torch::manual_seed(1);
  TransformerBlock block(16, 2, 32, 3, 0.0);
  perturb(*block);
  const torch::Tensor mask = sequence_mask(torch::tensor({int64_t{5}}), 9);
  torch::Tensor x = torch::randn({1, 9, 16}) * mask.unsqueeze(-1).to(torch::kFloat);
  torch::Tensor garbage = x.clone();
  garbage[0].slice(0, 5).copy_(torch::randn({4, 16}) * 100);
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::allclose(block->forward(x, mask).slice(1, 0, 5), block->forward(garbage, mask).slice(1, 0, 5),
                              1e-5, 1e-5));
}

TEST(Padding, DurationPredictorIgnoresPaddingAndLearns) {
  torch::manual_seed(2);
  DurationPredictor predictor(16, 32, 3, 0.0);
  perturb(*predictor);
  const torch::Tensor mask = sequence_mask(torch::tensor({int64_t{6}, int64_t{3}}), 6);
  torch::Tensor x = torch::randn({2, 6, 16}) * mask.unsqueeze(-1).to(torch::kFloat);
  torch::Tensor garbage = x.clone();
  garbage[1].slice(0, 3).fill_(50.0f);
  {
    torch::NoGradGuard no_grad;
    torch::Tensor a = predictor->forward(x, mask), b = predictor->forward(garbage, mask);
    EXPECT_TRUE(torch::allclose(a[1].slice(0, 0, 3), b[1].slice(0, 0, 3), 1e-5, 1e-5));
    EXPECT_EQ(b[1].slice(0, 3).abs().sum().item<float>(), 0.0f);
  }
  // It can fit a target: the loss falls by 10x in 200 Adam steps.
  const torch::Tensor target = torch::log1p(torch::randint(1, 10, {2, 6}).to(torch::kFloat)) * mask.to(torch::kFloat);
  torch::optim::Adam optimizer(predictor->parameters(), torch::optim::AdamOptions(1e-2));
  auto loss_of = [&] { return (predictor->forward(x, mask) - target).pow(2).sum() / mask.sum(); };
  const double first = loss_of().item<double>();
  for (int i = 0; i < 200; ++i) {
    optimizer.zero_grad();
    torch::Tensor loss = loss_of();
    loss.backward();
    optimizer.step();
  }
  EXPECT_LT(loss_of().item<double>(), first / 10);
}

}  // namespace
}  // namespace myxtts::model
