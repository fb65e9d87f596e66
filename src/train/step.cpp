#include "train/step.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string_view>
#include <thread>

#include "comm/world.h"
#include "core/error.h"
#include "core/fault.h"
#include "core/fingerprint.h"
#include "train/schedule.h"
#include "train/torch_compat.h"

namespace myxtts::train {
namespace {

std::vector<double> as_vector(const model::Counts& c) { return {c.mel_values, c.tokens, c.utterances, c.frames}; }

model::Counts add(model::Counts a, const model::Counts& b) {
  a.mel_values += b.mel_values, a.tokens += b.tokens, a.utterances += b.utterances, a.frames += b.frames;
  return a;
}

torch::optim::AdamWOptions adamw_options(const TrainConfig& c) {
  return torch::optim::AdamWOptions(c.learning_rate)
      .betas(std::make_tuple(c.adam_beta1, c.adam_beta2))
      .weight_decay(c.weight_decay);
}

}  // namespace

void set_trainer_threads(const TrainConfig& c) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(c.threads > 0 ? c.threads : std::max(1, cores / comm::local_size()));
}

bool use_bf16(const TrainConfig& config, const torch::Device& device) {
  return config.precision == "bf16" || (config.precision == "auto" && device.is_cuda());
}

Optimization::Optimization(model::AcousticModel model, const Config& config, comm::TrainerGroup& group,
                           torch::Device device)
    : model_(std::move(model)),
      config_(config),
      group_(group),
      device_(device),
      parameters_(model_->parameters()),
      optimizer_(parameters_, adamw_options(config.train)) {
  if (config.train.precision == "bf16" && !device.is_cuda())
    throw Error("train.precision = bf16 needs a CUDA trainer; use auto or fp32 on the CPU");
}

void Optimization::all_reduce_gradients() {
  const size_t bucket_values = static_cast<size_t>(config_.train.allreduce_bucket_mb) * (1 << 20) / sizeof(float);
  std::vector<torch::Tensor> bucket;
  size_t values = 0;
  auto reduce = [&] {
    if (bucket.empty()) return;
    std::vector<torch::Tensor> flat_parts;
    for (auto& p : bucket) flat_parts.push_back(p.grad().reshape({-1}));
    torch::Tensor flat = torch::cat(flat_parts).to(torch::kFloat).contiguous();
    group_.all_reduce_sum(flat.data_ptr<float>(), static_cast<size_t>(flat.numel()), device_.is_cuda());
    int64_t offset = 0;
    for (auto& p : bucket) {
      p.mutable_grad().copy_(flat.narrow(0, offset, p.numel()).view_as(p));
      offset += p.numel();
    }
    bucket.clear();
    values = 0;
  };
  for (auto& p : parameters_) {
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);  // unused this step: zero everywhere
    bucket.push_back(p);
    values += static_cast<size_t>(p.numel());
    if (values >= bucket_values) reduce();
  }
  reduce();
}

StepResult Optimization::step(const std::vector<model::Batch>& batches, int64_t step) {
  StepResult result;
  model::Counts local;
  for (const auto& b : batches) local = add(local, model::counts_of(b));
  std::vector<double> counts = as_vector(local);
  group_.all_reduce_sum(counts.data(), counts.size());
  result.counts = {counts[0], counts[1], counts[2], counts[3]};

  model_->train();
  optimizer_.zero_grad();
  std::vector<double> sums(model::kTermCount + 1, 0.0);  // terms, then the objective
  // Tests poison one trainer's loss to check that every trainer skips that step together.
  const bool poison = group_.index() == group_.size() - 1 && fault_after("NONFINITE_LOSS_AT_STEP") == step;
  for (const auto& batch : batches) {
    torch::Tensor objective;
    {
      CudaBf16Autocast autocast(use_bf16(config_.train, device_));
      const model::ModelOutput out = model_->forward(batch);
      const auto terms = model::loss_sums(out, batch);
      objective = model::objective(terms, result.counts, config_.loss, step);
      if (poison) objective = objective * std::numeric_limits<double>::quiet_NaN();
      for (int t = 0; t < model::kTermCount; ++t) sums[t] += terms[t].item<double>();
      sums[model::kTermCount] += objective.item<double>();
    }
    objective.backward();
  }
  all_reduce_gradients();
  group_.all_reduce_sum(sums.data(), sums.size());
  std::array<double, model::kTermCount> term_sums{};
  std::copy(sums.begin(), sums.begin() + model::kTermCount, term_sums.begin());
  result.terms = model::normalized_terms(term_sums, result.counts);
  result.loss = sums[model::kTermCount];
  result.learning_rate = learning_rate_at(config_.train, step);

  // Every trainer holds the same reduced gradients, but a norm's last bits depend on thread count
  // and device: take trainer 0's value (via the max), so clipping and skipping agree bit for bit.
  std::vector<torch::Tensor> grads;
  for (auto& p : parameters_) grads.push_back(p.grad().reshape({-1}));
  result.grad_norm = group_.all_reduce_max(torch::cat(grads).to(torch::kDouble).norm().item<double>());
  if (!std::isfinite(result.grad_norm) || !std::isfinite(result.loss)) {
    optimizer_.zero_grad();
    return result;
  }
  const double clip = config_.train.grad_clip;
  if (clip > 0 && result.grad_norm > clip) {
    torch::NoGradGuard no_grad;
    for (auto& p : parameters_) p.mutable_grad().mul_(clip / (result.grad_norm + 1e-6));
  }
  for (auto& group : optimizer_.param_groups())
    static_cast<torch::optim::AdamWOptions&>(group.options()).lr(result.learning_rate);
  optimizer_.step();
  result.applied = true;
  return result;
}

Evaluation evaluate(model::AcousticModel& model, const model::Batch& batch, bool bf16) {
  torch::NoGradGuard no_grad;
  model->eval();
  Evaluation e;
  CudaBf16Autocast autocast(bf16);
  const model::ModelOutput out = model->forward(batch);
  const auto terms = model::loss_sums(out, batch);
  for (int t = 0; t < model::kTermCount; ++t) e.sums[t] = terms[t].item<double>();
  e.counts = model::counts_of(batch);
  const torch::Tensor predicted = torch::expm1(out.log_durations.to(torch::kFloat)).clamp_min(0);
  e.duration_abs_error =
      ((predicted - out.durations.to(torch::kFloat)).abs() * out.text_mask.to(torch::kFloat)).sum().item<double>();
  // Monotonic by construction; what can go wrong is coverage: every token >= 1 frame, all frames used.
  const torch::Tensor token_skipped = ((out.durations < 1) & out.text_mask).any(1);
  const torch::Tensor frames_unused = out.durations.sum(1) != batch.mel_lengths;
  e.alignment_violations = (token_skipped | frames_unused).sum().item<double>();
  e.output = out;
  return e;
}

uint64_t parameter_digest(torch::nn::Module& module) {
  uint64_t digest = 0xcbf29ce484222325ULL;
  for (const auto& p : module.parameters()) {
    const torch::Tensor cpu = p.detach().to(torch::kCPU).contiguous();
    digest = fnv1a64(std::string_view(static_cast<const char*>(cpu.data_ptr()), cpu.nbytes()), digest);
  }
  return digest;
}

}  // namespace myxtts::train
