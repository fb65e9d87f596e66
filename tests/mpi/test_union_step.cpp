// Data-parallel equivalence under real mpirun (3 ranks): two trainers stepping on batches b1 and
// b2 (summed gradients over the trainer group) reach the same parameters as one trainer stepping
// on b1 u b2, and as one trainer accumulating b1 then b2. Exits non-zero on any difference.
#include <cstdio>
#include <vector>

#include "comm/collectives.h"
#include "comm/layout.h"
#include "comm/world.h"
#include "model/acoustic_model.h"
#include "train/step.h"

using namespace myxtts;

namespace {

model::Batch random_batch(int64_t size, int64_t seed) {
  torch::manual_seed(seed);
  const int64_t tokens = 12, frames = 48, mels = 20;
  model::Batch b;
  b.ids = torch::arange(size);
  b.text_lengths = torch::randint(4, tokens + 1, {size}, torch::kLong);
  b.mel_lengths = torch::randint(24, frames + 1, {size}, torch::kLong);
  b.tokens = torch::randint(4, 30, {size, tokens}, torch::kLong) *
             (torch::arange(tokens).unsqueeze(0) < b.text_lengths.unsqueeze(1)).to(torch::kLong);
  b.languages = torch::zeros({size}, torch::kLong);
  b.speakers = torch::zeros({size}, torch::kLong);
  b.mels = torch::randn({size, frames, mels}) - 4.0;
  b.references = torch::randn({size, 16, mels}) - 4.0;
  return b;
}

model::Batch concatenate(const model::Batch& a, const model::Batch& b) {
  model::Batch u;
  u.ids = torch::cat({a.ids, b.ids});
  u.text_lengths = torch::cat({a.text_lengths, b.text_lengths});
  u.mel_lengths = torch::cat({a.mel_lengths, b.mel_lengths});
  u.tokens = torch::cat({a.tokens, b.tokens});
  u.languages = torch::cat({a.languages, b.languages});
  u.speakers = torch::cat({a.speakers, b.speakers});
  u.mels = torch::cat({a.mels, b.mels});
  u.references = torch::cat({a.references, b.references});
  return u;
}

Config small_config() {
  Config c;
  c.model.dim = 32, c.model.ffn_dim = 64, c.model.encoder_layers = 1, c.model.decoder_layers = 1;
  c.model.conditioning_layers = 1, c.model.latents = 2, c.model.duration_hidden = 32, c.model.aligner_dim = 16;
  c.model.dropout = 0.0;
  c.loss.binarization_start = 0;  // every term contributes
  c.loss.mel_l2 = 0.5;
  c.train.warmup_steps = 0;
  return c;
}

// Parameters after `steps` optimiser steps on `batches` within `group`.
torch::Tensor parameters_after(const Config& config, comm::TrainerGroup& group, const std::vector<model::Batch>& batches,
                    int steps) {
  torch::manual_seed(7);
  model::AcousticModel net(config.model, 30, 1, 20);
  train::Optimization optimization(net, config, group, torch::Device(torch::kCPU));
  for (int s = 0; s < steps; ++s) optimization.step(batches, s);
  std::vector<torch::Tensor> flat;
  for (const auto& p : net->parameters()) flat.push_back(p.detach().reshape({-1}));
  return torch::cat(flat);
}

int failures = 0;
void expect_close(const torch::Tensor& a, const torch::Tensor& b, const char* what) {
  const double diff = (a - b).abs().max().item<double>(), scale = b.abs().max().item<double>();
  const bool ok = diff <= 1e-5 * scale;
  std::printf("rank %d: %s: max |difference| %.3g (parameter scale %.3g) %s\n", comm::rank(), what, diff, scale,
              ok ? "ok" : "FAILED");
  failures += !ok;
}

}  // namespace

int main(int argc, char** argv) {
  comm::init(&argc, &argv);
  if (comm::size() != 3) {
    std::fprintf(stderr, "run with mpirun -np 3\n");
    comm::abort(2);
  }
  torch::set_num_threads(1);
  LayoutConfig two_trainers, one_trainer;
  two_trainers.gpus_per_node = one_trainer.gpus_per_node = 0;
  one_trainer.producers_per_node = 2;  // ranks 0, 1 produce; rank 2 is the only trainer
  const comm::Layout split = comm::plan_layout({0, 0, 0}, 0, two_trainers);
  const comm::Layout alone = comm::plan_layout({0, 0, 0}, 0, one_trainer);
  auto pair = comm::make_trainer_group(split, comm::rank(), false);
  auto single = comm::make_trainer_group(alone, comm::rank(), false);

  const Config config = small_config();
  const model::Batch b1 = random_batch(3, 11), b2 = random_batch(2, 12);
  const int steps = 3;
  if (pair) {
    const torch::Tensor together = parameters_after(config, *pair, {pair->index() == 0 ? b1 : b2}, steps);
    if (single) {  // rank 2 holds the single-trainer references
      expect_close(together, parameters_after(config, *single, {concatenate(b1, b2)}, steps), "2 trainers vs 1 on b1 u b2");
      expect_close(together, parameters_after(config, *single, {b1, b2}, steps), "2 trainers vs 1 accumulating b1, b2");
    }
  }
  pair.reset(), single.reset();  // their communicators are freed before MPI ends
  comm::finalize();
  return failures == 0 ? 0 : 1;
}
