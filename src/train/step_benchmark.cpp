#include "train/step_benchmark.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "comm/collectives.h"
#include "comm/gpu_info.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/log.h"
#include "data/cache_reader.h"
#include "train/batch_stream.h"
#include "train/batch_tensors.h"
#include "train/producer.h"
#include "train/step.h"

namespace myxtts::train {
namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct TrainerTimes {
  double pipeline = 0, resident = 0, wait = 0;
};

TrainerTimes time_trainer(const Config& config, const comm::Layout& layout, const data::CacheReader& cache,
                          comm::TrainerGroup& group, int warmup, int steps) {
  const torch::Device device = trainer_device(layout);
  model::AcousticModel net = make_model(config, cache, device);
  Optimization optimization(net, config, group, device);
  auto channel = comm::make_trainer_channel(layout, comm::rank(), channel_options(config.stream));
  BatchStream stream(*channel, 1e9);
  std::vector<model::Batch> kept;
  TrainerTimes times;
  double wait_at_start = 0;
  Clock::time_point start;
  for (int step = 0; step < warmup + steps;) {
    if (step == warmup) start = Clock::now(), wait_at_start = stream.wait_seconds();
    const auto event = stream.next();
    if (event == BatchStream::Event::kEndOfEpoch) continue;
    if (event != BatchStream::Event::kBatch) throw Error("the producer ended the stream early");
    model::Batch batch = to_batch(stream.header(), stream.payload(), stream.payload_on_device(), device);
    stream.done();
    optimization.step({batch}, step);
    if (step >= warmup) kept.push_back(std::move(batch));
    ++step;
  }
  times.pipeline = seconds_since(start);
  times.wait = stream.wait_seconds() - wait_at_start;
  while (stream.next() != BatchStream::Event::kEndOfData) {
  }
  const auto resident_start = Clock::now();
  for (size_t i = 0; i < kept.size(); ++i) optimization.step({kept[i]}, warmup + steps + static_cast<int64_t>(i));
  times.resident = seconds_since(resident_start);
  return times;
}

}  // namespace

void run_step_benchmark(const Config& config, int warmup, int steps) {
  const comm::Layout layout = comm::job_layout(config.layout);
  const comm::RankPlan& me = layout.ranks[comm::rank()];
  data::CacheReader cache(config.train.cache);
  cache.require_compatible(config);
  if (me.gpu >= 0) comm::use_gpu(me.gpu);
  auto group = comm::make_trainer_group(layout, comm::rank(), me.role == comm::Role::kTrainer && me.gpu >= 0);
  const int trainers = static_cast<int>(layout.trainers.size());

  // Per rank: role, pipeline seconds, resident seconds, data wait seconds, assembly batches/s.
  std::vector<double> row(5, 0.0);
  row[0] = static_cast<double>(me.role);
  if (me.role == comm::Role::kProducer) {
    auto channel = comm::make_producer_channel(layout, comm::rank(), channel_options(config.stream));
    StreamSpec spec;
    spec.epochs = 1 << 30;
    spec.max_batches = warmup + steps;
    run_producer(config, cache, layout, *channel, spec);
    comm::barrier();  // the trainers' resident phase runs alone, then the assembly rate alone
    row[4] = assembly_rate(config, cache, trainers);
  } else {
    set_trainer_threads(config.train);
    const TrainerTimes t = time_trainer(config, layout, cache, *group, warmup, steps);
    row = {row[0], t.pipeline, t.resident, t.wait, 0.0};
    comm::barrier();
  }
  group.reset();
  const std::vector<double> all = comm::gather_to_root(row);
  if (comm::rank() != 0) return;
  double pipeline = 0, resident = 0, wait = 0, assembly = 0;
  for (size_t i = 0; i < all.size(); i += row.size()) {
    if (all[i] == static_cast<double>(comm::Role::kProducer)) {
      assembly += all[i + 4];
    } else {
      pipeline = std::max(pipeline, all[i + 1]), resident = std::max(resident, all[i + 2]);
      wait = std::max(wait, all[i + 3]);
    }
  }
  const double consumed = steps / resident;  // batches per second one trainer takes when never waiting
  fmt::print("trainers            {} ({}), {} measured steps after {} warm-up\n", trainers,
             layout.ranks[layout.trainers[0]].gpu >= 0 ? "GPU" : "CPU", steps, warmup);
  fmt::print("pipeline            {:.4f} s/step (batches streamed by the producer)\n", pipeline / steps);
  fmt::print("resident bound      {:.4f} s/step (the same batches held in trainer memory)\n", resident / steps);
  fmt::print("achieved / bound    {:.3f} (goal >= 0.98 on GPU)\n", resident / pipeline);
  fmt::print("trainer data wait   {:.2f} % of the pipeline phase (worst trainer)\n", 100 * wait / pipeline);
  fmt::print("producer assembly   {:.1f} batches/s vs {:.1f} batches/s one trainer consumes: {:.1f}x (goal >= 4)\n",
             assembly, consumed, assembly / consumed);
}

}  // namespace myxtts::train
