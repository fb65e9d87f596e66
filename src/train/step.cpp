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

torch::Device trainer_device(const comm::Layout& layout) {
  const int gpu = layout.ranks[comm::rank()].gpu;
  return gpu >= 0 ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(gpu)) : torch::Device(torch::kCPU);
}

model::AcousticModel make_model(const Config& config, const data::CacheReader& cache, const torch::Device& device) {
  torch::manual_seed(config.train.seed);
  const auto& meta = cache.metadata();
  model::AcousticModel net(config.model, static_cast<int64_t>(meta.vocabulary.size()),
                           std::max<int64_t>(1, static_cast<int64_t>(meta.languages.size())), cache.n_mels());
  net->to(device);
  return net;
}

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
  const int64_t bucket_values = static_cast<int64_t>(config.train.allreduce_bucket_mb) * (1 << 20) / sizeof(float);
  int64_t values = 0;
  for (auto& p : parameters_) {
    if (buckets_.empty() || values >= bucket_values) buckets_.emplace_back(), values = 0;
    buckets_.back().parameters.push_back(p);
    values += p.numel();
  }
  for (auto& b : buckets_) {
    int64_t total = 0;
    for (const auto& p : b.parameters) total += p.numel();
    b.flat = torch::empty({total}, torch::TensorOptions().dtype(torch::kFloat).device(device));
  }
}

torch::Tensor Optimization::all_reduce_gradients() {
  torch::NoGradGuard no_grad;
  torch::Tensor squared_norm = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device_));
  for (auto& b : buckets_) {
    int64_t offset = 0;
    for (auto& p : b.parameters) {
      torch::Tensor part = b.flat.narrow(0, offset, p.numel());
      if (p.grad().defined())
        part.copy_(p.grad().reshape({-1}));
      else
        part.zero_();  // unused this step: zero on every trainer
      offset += p.numel();
    }
    group_.all_reduce_sum(b.flat.data_ptr<float>(), static_cast<size_t>(b.flat.numel()), device_.is_cuda());
    offset = 0;
    for (auto& p : b.parameters) {
      const torch::Tensor part = b.flat.narrow(0, offset, p.numel()).view_as(p);
      if (p.grad().defined())
        p.mutable_grad().copy_(part);
      else
        p.mutable_grad() = part.clone();
      offset += p.numel();
    }
    squared_norm += b.flat.to(torch::kDouble).pow(2).sum();
  }
  return squared_norm;
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
      // One device-to-host copy per batch for all the values the metrics need.
      std::vector<torch::Tensor> values(terms.begin(), terms.end());
      values.push_back(objective);
      const torch::Tensor host = torch::stack(values).detach().to(torch::kCPU, torch::kDouble);
      for (int t = 0; t <= model::kTermCount; ++t) sums[t] += host[t].item<double>();
    }
    objective.backward();
  }
  const torch::Tensor squared_norm = all_reduce_gradients();
  group_.all_reduce_sum(sums.data(), sums.size());
  std::array<double, model::kTermCount> term_sums{};
  std::copy(sums.begin(), sums.begin() + model::kTermCount, term_sums.begin());
  result.terms = model::normalized_terms(term_sums, result.counts);
  result.loss = sums[model::kTermCount];
  result.learning_rate = learning_rate_at(config_.train, step);

  // Every trainer holds the same reduced gradients, but a norm's last bits depend on thread count
  // and device: take trainer 0's value (via the max), so clipping and skipping agree bit for bit.
  result.grad_norm = group_.all_reduce_max(std::sqrt(squared_norm.item<double>()));
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
