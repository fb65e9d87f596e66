#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <numeric>

#include "core/error.h"
#include "model/alignment.h"

namespace myxtts::model {
namespace {

// Score of the best monotonic path by enumerating every split of the frames into tokens.
double brute_force_best(const torch::Tensor& lp) {
  const int64_t tokens = lp.size(0), frames = lp.size(1);
  double best = -std::numeric_limits<double>::infinity();
  std::vector<int64_t> durations(tokens, 1);
  std::function<void(int64_t, int64_t)> split = [&](int64_t token, int64_t left) {
    if (token == tokens - 1) {
      durations[token] = left;
      double score = 0;
      for (int64_t t = 0, m = 0; t < tokens; ++t)
        for (int64_t k = 0; k < durations[t]; ++k, ++m) score += lp[t][m].item<double>();
      best = std::max(best, score);
      return;
    }
    for (int64_t d = 1; d <= left - (tokens - token - 1); ++d) {
      durations[token] = d;
      split(token + 1, left - d);
    }
  };
  split(0, frames);
  return best;
}

double path_score(const torch::Tensor& lp, const std::vector<int64_t>& durations) {
  double score = 0;
  for (int64_t t = 0, m = 0; t < lp.size(0); ++t)
    for (int64_t k = 0; k < durations[t]; ++k, ++m) score += lp[t][m].item<double>();
  return score;
}

TEST(MonotonicAlignment, FollowsAClearDiagonal) {
  torch::Tensor lp = torch::full({3, 7}, -10.0);
  lp.index_put_({0, torch::indexing::Slice(0, 2)}, 0.0);
  lp.index_put_({1, torch::indexing::Slice(2, 5)}, 0.0);
  lp.index_put_({2, torch::indexing::Slice(5, 7)}, 0.0);
  EXPECT_EQ(monotonic_alignment_search(lp), (std::vector<int64_t>{2, 3, 2}));
}

TEST(MonotonicAlignment, IsTheBestPathAndCoversEveryTokenAndFrame) {
  torch::manual_seed(3);
  for (auto [tokens, frames] : std::vector<std::pair<int64_t, int64_t>>{{1, 5}, {3, 3}, {4, 9}, {5, 11}}) {
    torch::Tensor lp = torch::log_softmax(torch::randn({tokens, frames}, torch::kDouble), 0);
    std::vector<int64_t> d = monotonic_alignment_search(lp);
    EXPECT_EQ(std::accumulate(d.begin(), d.end(), int64_t{0}), frames);
    for (int64_t x : d) EXPECT_GE(x, 1);
    EXPECT_NEAR(path_score(lp, d), brute_force_best(lp), 1e-9) << tokens << "x" << frames;
  }
  EXPECT_THROW(monotonic_alignment_search(torch::zeros({4, 3})), Error);
}

TEST(MonotonicAlignment, BatchedDurationsStopAtEachLength) {
  torch::manual_seed(5);
  torch::Tensor lp = torch::randn({2, 4, 10});
  torch::Tensor d = hard_durations(lp, torch::tensor({4, 2}), torch::tensor({10, 6}));
  EXPECT_EQ(d[0].sum().item<int64_t>(), 10);
  EXPECT_EQ(d[1].sum().item<int64_t>(), 6);
  EXPECT_EQ(d[1][2].item<int64_t>(), 0);
  EXPECT_EQ(d[1][3].item<int64_t>(), 0);
}

TEST(ForwardSumLoss, PrefersMonotonicAttentionAndHasFiniteGradients) {
  const int64_t tokens = 5, frames = 20;
  torch::Tensor diagonal = torch::full({1, frames, tokens}, -5.0);
  torch::Tensor reversed = torch::full({1, frames, tokens}, -5.0);
  for (int64_t m = 0; m < frames; ++m) {
    diagonal[0][m][m * tokens / frames] = 5.0;
    reversed[0][m][tokens - 1 - m * tokens / frames] = 5.0;
  }
  const torch::Tensor tl = torch::tensor({tokens}), ml = torch::tensor({frames});
  const double good = forward_sum_loss(diagonal, tl, ml).item<double>();
  const double bad = forward_sum_loss(reversed, tl, ml).item<double>();
  EXPECT_LT(good, 0.5);
  EXPECT_GT(bad, good + 5.0);

  torch::Tensor logits = torch::randn({2, frames, tokens}, torch::requires_grad());
  torch::Tensor loss =
      forward_sum_loss(logits, torch::tensor({tokens, int64_t{3}}), torch::tensor({frames, int64_t{8}})).sum();
  loss.backward();
  EXPECT_TRUE(torch::isfinite(loss).item<bool>());
  EXPECT_TRUE(torch::isfinite(logits.grad()).all().item<bool>());
  // Padding (beyond each length) gets no gradient.
  EXPECT_EQ(logits.grad()[1].slice(0, 8).abs().sum().item<double>(), 0.0);
  EXPECT_EQ(logits.grad()[1].slice(1, 3).abs().sum().item<double>(), 0.0);
  // Batched equals one utterance at a time.
  const torch::Tensor both = forward_sum_loss(logits, torch::tensor({tokens, int64_t{3}}), torch::tensor({frames, int64_t{8}}));
  const torch::Tensor second = forward_sum_loss(logits.slice(0, 1, 2).slice(1, 0, 8).slice(2, 0, 3),
                                                torch::tensor({int64_t{3}}), torch::tensor({int64_t{8}}));
  EXPECT_NEAR(both[1].item<double>(), second[0].item<double>(), 1e-5);
}

}  // namespace
}  // namespace myxtts::model
