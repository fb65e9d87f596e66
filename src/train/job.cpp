#include "train/job.h"

#include <fmt/format.h>

#include <filesystem>

#include "comm/collectives.h"
#include "comm/gpu_info.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/fs.h"
#include "core/log.h"
#include "train/producer.h"
#include "train/trainer.h"

namespace myxtts::train {
namespace fs = std::filesystem;
namespace {

Resume resolve_resume(const Config& config, const std::string& resume, const data::CacheReader& cache,
                      int trainers) {
  const CheckpointStore store(config.train.output_dir);
  Resume r;
  if (resume == "auto") {
    if (auto latest = store.latest()) r.checkpoint = *latest;
  } else if (!resume.empty()) {
    if (!fs::exists(fs::path(resume) / "state.yaml"))
      throw Error(fmt::format("--resume {}: not a complete checkpoint (no state.yaml); use --resume auto or a "
                              "directory under {}",
                              resume, store.directory()));
    r.checkpoint = resume;
  } else if (store.latest()) {
    throw Error(fmt::format("{} already holds checkpoints: pass --resume auto to continue, or choose another "
                            "train.output_dir",
                            store.directory()));
  }
  if (r.checkpoint.empty()) return r;
  r.state = read_state(r.checkpoint);
  require_resumable(r.checkpoint, r.state, config, cache_identity(cache), trainers);
  const int saved_steps = read_config(r.checkpoint).train.steps;
  if (saved_steps != config.train.steps && config.train.decay != "constant" && comm::rank() == 0)
    log::get("train")->warn("train.steps is {} now, {} in the checkpoint: the {} decay is stretched from here on",
                            config.train.steps, saved_steps, config.train.decay);
  return r;
}

}  // namespace

void run_training(const Config& config, const std::string& resume) {
  auto logger = log::get("train");
  if (config.train.cache.empty()) throw Error("train.cache is not set: --set train.cache=DIR (a myxtts preprocess output)");
  const comm::Layout layout = comm::job_layout(config.layout);
  const comm::RankPlan& me = layout.ranks[comm::rank()];
  if (comm::rank() == 0) {
    ensure_writable_directory(config.train.output_dir, "train.output_dir");
    logger->info("layout:\n{}", comm::describe(layout));
  }
  comm::barrier();
  log::attach_directory((fs::path(config.train.output_dir) / "logs").string());
  if (me.role == comm::Role::kTrainer && me.trainer_index == 0) log::speak_on_console();

  data::CacheReader cache(config.train.cache);
  cache.require_compatible(config);
  const int trainers = static_cast<int>(layout.trainers.size());
  const Resume resume_point = resolve_resume(config, resume, cache, trainers);
  const int64_t start_step = resume_point.state.step;
  if (comm::rank() == 0) {
    save_config(config, (fs::path(config.train.output_dir) / "config.yaml").string());
    logger->info(resume_point.checkpoint.empty() ? std::string("starting a new run in ") + config.train.output_dir
                                                 : "resuming from " + resume_point.checkpoint);
  }
  if (start_step >= config.train.steps) {
    if (comm::rank() == 0) logger->info("already trained {} of train.steps = {}; nothing to do", start_step, config.train.steps);
    return;
  }
  if (me.gpu >= 0) comm::use_gpu(me.gpu);
  auto group = comm::make_trainer_group(layout, comm::rank(), me.role == comm::Role::kTrainer && me.gpu >= 0);

  const comm::ChannelOptions options = channel_options(config.stream);
  const int64_t per_step = config.train.accumulation;
  if (me.role == comm::Role::kProducer) {
    auto channel = comm::make_producer_channel(layout, comm::rank(), options);
    StreamSpec spec;
    spec.epochs = 1 << 30;  // the step budget ends the stream
    spec.start = resume_point.state.cursor;
    spec.max_batches = (config.train.steps - start_step) * per_step;
    spec.validation_every = static_cast<int64_t>(config.train.validation_interval) * per_step;
    spec.batches_done = start_step * per_step;
    const ProducerStats stats = run_producer(config, cache, layout, *channel, spec);
    logger->info("producer: {} batches, {:.1f} batches/s, blocked on credits {:.1f} % of the time", stats.batches,
                 stats.batches / std::max(1e-9, stats.seconds), 100 * stats.send_wait_seconds / std::max(1e-9, stats.seconds));
  } else {
    set_trainer_threads(config.train);
    auto channel = comm::make_trainer_channel(layout, comm::rank(), options);
    Trainer(config, layout, cache, *channel, *group, resume_point).run();
  }
  comm::barrier();
  if (comm::rank() == 0) logger->info("training done: {} steps in {}", config.train.steps, config.train.output_dir);
}

}  // namespace myxtts::train
