#include "train/trainer.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "comm/world.h"
#include "core/error.h"
#include "core/fingerprint.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "data/cache_format.h"
#include "train/batch_tensors.h"

namespace myxtts::train {
namespace {
using Clock = std::chrono::steady_clock;
using Event = BatchStream::Event;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Dropout masks depend on (seed, step, trainer) only, so a resumed run draws what the
// uninterrupted run drew; trainers draw differently from one another.
uint64_t step_seed(int64_t seed, int64_t step, int trainer) {
  return fnv1a64(fmt::format("{}/{}/{}", seed, step, trainer)) >> 1;
}

// Row-major [rows, cols] floats of a 2-D tensor.
std::vector<float> to_floats(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace

std::string cache_identity(const data::CacheReader& cache) {
  return cache.fingerprint() + "-" + data::index_digest(cache.index(), cache.metadata());
}

Trainer::Trainer(const Config& config, const comm::Layout& layout, const data::CacheReader& cache,
                 comm::TrainerChannel& channel, comm::TrainerGroup& group, const Resume& resume)
    : config_(config),
      cache_(cache),
      group_(group),
      device_(trainer_device(layout)),
      stream_(channel, config.stream.metrics_interval_seconds),
      metrics_(config.train.output_dir, group.index() == 0),
      store_(config.train.output_dir),
      state_(resume.state) {
  model_ = make_model(config, cache, device_);
  optimization_ = std::make_unique<Optimization>(model_, config, group, device_);
  if (!resume.checkpoint.empty()) load_checkpoint(resume.checkpoint, *model_, &optimization_->optimizer());
  state_.trainers = group.size();
  state_.cache_identity = cache_identity(cache);
  state_.cache_path = cache.path();
  int64_t parameters = 0;
  for (const auto& p : model_->parameters()) parameters += p.numel();
  if (group.index() == 0)
    log::get("train")->info("model: {:.2f} M parameters on {} ({}), {} trainer(s), {} batch(es) per step each",
                            parameters / 1e6, device_.str(), use_bf16(config.train, device_) ? "bf16 autocast" : "fp32",
                            group.size(), config.train.accumulation);
}

void Trainer::check_replicas(const char* when) {
  if (!group_.all_equal(parameter_digest(*model_)))
    throw Error(fmt::format("trainer parameters differ {} (step {}): the replicas diverged; this is a bug, please "
                            "report it with the run's logs",
                            when, state_.step));
}

void Trainer::run() {
  const TrainConfig& c = config_.train;
  check_replicas("after initialisation");
  interval_ = IntervalClock{};
  interval_.wait_at_start = stream_.wait_seconds();
  while (state_.step < c.steps) {
    throw_if_interrupted();
    const auto start = Clock::now();
    const std::vector<model::Batch> batches = next_training_batches();
    torch::manual_seed(step_seed(c.seed, state_.step, group_.index()));
    const StepResult result = optimization_->step(batches, state_.step);
    ++state_.step;
    interval_.step_seconds.push_back(seconds_since(start));
    interval_.utterances += result.counts.utterances;
    interval_.frames += result.counts.frames;
    if (result.applied) {
      skipped_in_a_row_ = 0;
    } else {
      ++state_.skipped_steps;
      log::get("train")->warn("step {}: non-finite loss or gradient (loss {}, grad norm {}); skipped on every trainer",
                              state_.step, result.loss, result.grad_norm);
      if (++skipped_in_a_row_ >= c.max_skipped_steps)
        throw Error(fmt::format("{} non-finite steps in a row at step {}: lower train.learning_rate, raise "
                                "train.warmup_steps or check the data",
                                skipped_in_a_row_, state_.step));
    }
    if (state_.step % c.log_interval == 0 || state_.step == c.steps) report_interval(result);
    if (c.check_replicas_interval > 0 && state_.step % c.check_replicas_interval == 0) check_replicas("after a step");
    double validation_loss = -1;
    if (state_.step % c.validation_interval == 0 || state_.step == c.steps) validation_loss = validate();
    if (state_.step % c.checkpoint_interval == 0 || state_.step == c.steps) save_checkpoint(validation_loss);
  }
  expect_end_of_stream();
}

std::vector<model::Batch> Trainer::next_training_batches() {
  std::vector<model::Batch> batches;
  while (static_cast<int>(batches.size()) < config_.train.accumulation) {
    const Event event = stream_.next();
    const data::BatchHeader& h = stream_.header();
    if (event == Event::kEndOfData)
      throw Error(fmt::format("the producer ended the stream at step {} of {}", state_.step, config_.train.steps));
    if (h.split != static_cast<int32_t>(data::Split::kTrain))
      throw Error(fmt::format("expected a training batch at step {}, got a validation message: the producer's "
                              "schedule differs from this trainer's (same config on every rank?)",
                              state_.step));
    if (event == Event::kEndOfEpoch) {
      state_.cursor = {h.epoch + 1, 0};
      continue;
    }
    if (h.epoch != state_.cursor.epoch || h.step != state_.cursor.step)
      throw Error(fmt::format("got the batch of epoch {} step {}, expected epoch {} step {}", h.epoch, h.step,
                              state_.cursor.epoch, state_.cursor.step));
    batches.push_back(to_batch(h, stream_.payload(), stream_.payload_on_device(), device_));
    interval_.padded_frames += static_cast<double>(h.batch_size) * h.max_frames * group_.size();
    stream_.done();
    ++state_.cursor.step;
  }
  return batches;
}

void Trainer::report_interval(const StepResult& r) {
  const double elapsed = seconds_since(interval_.start);
  const auto& times = interval_.step_seconds;
  const double mean = std::accumulate(times.begin(), times.end(), 0.0) / times.size();
  double variance = 0;
  for (double t : times) variance += (t - mean) * (t - mean);
  const double cv = times.size() > 1 ? std::sqrt(variance / times.size()) / mean : 0.0;
  const double wait = (stream_.wait_seconds() - interval_.wait_at_start) / elapsed;
  // Padded frames are counted on this trainer times the trainer count: an estimate for all.
  const double padding = 1.0 - interval_.frames / std::max(1.0, interval_.padded_frames);
  Scalars values{{"loss", r.loss}};
  for (int t = 0; t < model::kTermCount; ++t) values.emplace_back(model::kTermNames[t], r.terms[t]);
  values.insert(values.end(), {{"grad_norm", r.grad_norm},
                               {"learning_rate", r.learning_rate},
                               {"samples_per_second", interval_.utterances / elapsed},
                               {"frames_per_second", interval_.frames / elapsed},
                               {"step_seconds", mean},
                               {"step_seconds_cv", cv},
                               {"data_wait_fraction", wait},
                               {"padding_fraction", padding},
                               {"skipped_steps", static_cast<double>(state_.skipped_steps)}});
  metrics_.write("train", state_.step, values);
  if (group_.index() == 0)
    log::get("train")->info(
        "step {}/{}  loss {:.4f} (mel {:.4f}, dur {:.4f}, align {:.4f})  lr {:.2e}  |g| {:.3g}  {:.1f} utt/s  "
        "step {:.3f} s (cv {:.2f})  data wait {:.1f} %",
        state_.step, config_.train.steps, r.loss, r.terms[model::kMelL1], r.terms[model::kDuration],
        r.terms[model::kForwardSum], r.learning_rate, r.grad_norm, interval_.utterances / elapsed, mean, cv,
        100 * wait);
  interval_ = IntervalClock{};
  interval_.wait_at_start = stream_.wait_seconds();
}

double Trainer::validate() {
  const auto start = Clock::now();
  std::vector<double> totals(model::kTermCount + 6, 0.0);  // term sums, 4 counts, duration error, violations
  bool first = true;
  while (true) {
    const Event event = stream_.next();
    const data::BatchHeader& h = stream_.header();
    if (event == Event::kEndOfData || h.split != static_cast<int32_t>(data::Split::kValidation))
      throw Error(fmt::format("expected the validation pass after step {}: the producer's schedule differs from "
                              "this trainer's (same config on every rank?)",
                              state_.step));
    if (event == Event::kEndOfEpoch) break;
    const model::Batch batch = to_batch(h, stream_.payload(), stream_.payload_on_device(), device_);
    stream_.done();
    const Evaluation e = evaluate(model_, batch, use_bf16(config_.train, device_));
    for (int t = 0; t < model::kTermCount; ++t) totals[t] += e.sums[t];
    const double counts[] = {e.counts.mel_values, e.counts.tokens, e.counts.utterances, e.counts.frames,
                             e.duration_abs_error, e.alignment_violations};
    for (int i = 0; i < 6; ++i) totals[model::kTermCount + i] += counts[i];
    if (first && group_.index() == 0) {
      // The first utterance: target mel above predicted, and its soft alignment (tokens up, frames across).
      const int64_t frames = batch.mel_lengths[0].item<int64_t>(), tokens = batch.text_lengths[0].item<int64_t>();
      const torch::Tensor target = batch.mels[0].slice(0, 0, frames), predicted = e.output.mel[0].slice(0, 0, frames);
      const torch::Tensor mels = torch::cat({predicted, target}, 1).transpose(0, 1);  // [2M, F]
      metrics_.image("mel", to_floats(mels), static_cast<int>(mels.size(0)), static_cast<int>(frames), state_.step);
      const torch::Tensor alignment =
          e.output.attention_log_soft[0].slice(0, 0, frames).slice(1, 0, tokens).exp().transpose(0, 1);
      metrics_.image("alignment", to_floats(alignment), static_cast<int>(tokens), static_cast<int>(frames),
                     state_.step);
    }
    first = false;
  }
  group_.all_reduce_sum(totals.data(), totals.size());
  const double* n = &totals[model::kTermCount];
  const model::Counts counts{n[0], n[1], n[2], n[3]};
  std::array<double, model::kTermCount> sums{};
  std::copy(totals.begin(), totals.begin() + model::kTermCount, sums.begin());
  const auto terms = model::normalized_terms(sums, counts);
  // Every term weighted as at the end of training (binarisation on), so losses of different steps
  // compare and the best checkpoint is chosen on one scale.
  const double loss = model::weighted_total(terms, config_.loss, std::numeric_limits<int64_t>::max());
  Scalars values{{"loss", loss}};
  for (int t = 0; t < model::kTermCount; ++t) values.emplace_back(model::kTermNames[t], terms[t]);
  values.insert(values.end(), {{"duration_error_frames", n[4] / counts.tokens},
                               {"alignment_violations", n[5]},
                               {"utterances", counts.utterances},
                               {"seconds", seconds_since(start)}});
  metrics_.write("validation", state_.step, values);
  if (group_.index() == 0)
    log::get("train")->info("validation at step {}: loss {:.4f} (mel {:.4f}), duration error {:.2f} frames/token, "
                            "{} utterances, {} alignment violations",
                            state_.step, loss, terms[model::kMelL1], n[4] / counts.tokens, counts.utterances, n[5]);
  return loss;
}

void Trainer::save_checkpoint(double validation_loss) {
  if (group_.index() != 0) return;  // replicas are identical: one writer
  CheckpointState state = state_;
  state.validation_loss = validation_loss;
  state.parameter_digest = fmt::format("{:016x}", parameter_digest(*model_));
  const std::string dir = store_.save(state, config_, cache_.metadata(), *model_,
                                      optimization_->optimizer(), config_.train.keep_checkpoints);
  log::get("train")->info("checkpoint {} (parameters {})", dir, state.parameter_digest);
}

void Trainer::expect_end_of_stream() {
  while (true) {
    const Event event = stream_.next();
    if (event == Event::kEndOfData) return;
    if (event != Event::kEndOfEpoch)
      throw Error(fmt::format("the producer sent more batches after the last step ({})", state_.step));
  }
}

}  // namespace myxtts::train
