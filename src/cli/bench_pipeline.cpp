// `myxtts bench pipeline`: producer ranks stream to null trainers (which receive, touch and
// optionally verify every batch) and report, in one run, the channel's batch rate and
// bandwidth against raw MPI at the same message size and against the producer's assembly rate.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "comm/bandwidth.h"
#include "comm/channel.h"
#include "comm/layout.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/fault.h"
#include "core/log.h"
#include "data/batch_assembler.h"
#include "data/cache_reader.h"
#include "train/batch_stream.h"
#include "train/producer.h"

namespace myxtts::cli {
namespace {
using Clock = std::chrono::steady_clock;

struct PipelineOptions {
  ConfigOptions config;
  std::string cache;
  int epochs = 1;
  int start_epoch = 0;
  int start_step = 0;
  bool verify = false;
  std::string record;
  std::string split = "train";
  std::string log_dir;
  int raw_rounds = 20;
};

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The channel alone: `rounds` copies of one assembled batch to every trainer, through the credit
// flow control but with nothing to assemble. Returns seconds until the trainers had them all.
double channel_only_send(comm::ProducerChannel& channel, const std::vector<int>& trainers,
                         const comm::MessageBuffer& message, int rounds, int slots) {
  // Pre-filled buffers circulate: a buffer whose send completed still holds the same batch.
  std::vector<comm::MessageBuffer> filled(trainers.size() * (slots + 1), message);
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i)
    for (int t : trainers) {
      comm::MessageBuffer buffer = channel.take_buffer();
      if (buffer.size() != message.size()) {
        buffer = std::move(filled.back());
        filled.pop_back();
      }
      channel.send(t, std::move(buffer));
    }
  for (int t : trainers) channel.send_unconditionally(t, data::make_notice(data::MessageKind::kEndOfData, -1, comm::rank()));
  channel.flush();
  return seconds_since(start);
}

// Trainer side of the channel-only phase: receive and touch until the end notice.
void channel_only_receive(comm::TrainerChannel& channel) {
  train::BatchStream stream(channel);
  uint64_t touched = 0;
  while (stream.next() == train::BatchStream::Event::kBatch) {
    if (!stream.payload_on_device())
      for (size_t i = 0; i < stream.header().payload_bytes; i += 4096) touched += stream.payload()[i];
    stream.done();
  }
  log::get("bench")->debug("channel-only checksum {}", touched);
}

// A null trainer: receives every batch, touches every byte, checks the order and (with
// --verify) that the bytes equal what this rank assembles itself from the cache.
struct TrainerResult {
  int64_t batches = 0, bytes = 0;
  double wait = 0, seconds = 0;
};

TrainerResult run_null_trainer(const Config& config, const data::CacheReader& cache,
                               const comm::Layout& layout, comm::TrainerChannel& channel,
                               const PipelineOptions& o) {
  const comm::RankPlan& me = layout.ranks[comm::rank()];
  train::BatchStream stream(channel, config.stream.metrics_interval_seconds);
  std::ofstream record;
  if (!o.record.empty())
    record.open(fmt::format("{}/trainer-{}.txt", o.record, me.trainer_index));
  const auto items = train::split_items(
      cache, o.split == "validation" ? data::Split::kValidation : data::Split::kTrain);
  data::BatchAssembler assembler(cache, config.batch, me.producer);
  comm::MessageBuffer expected;
  const long kill_after = fault_after("TRAINER_KILL_AFTER_BATCHES");

  TrainerResult result;
  const auto start = Clock::now();
  uint64_t checksum = 0;
  for (int epoch = o.start_epoch; epoch < o.start_epoch + o.epochs; ++epoch) {
    const data::EpochPlan plan = data::plan_epoch(items, config.batch, epoch, static_cast<int>(layout.trainers.size()));
    for (int step = epoch == o.start_epoch ? o.start_step : 0;; ++step) {
      const auto event = stream.next();
      if (event == train::BatchStream::Event::kEndOfEpoch) {
        if (step != static_cast<int>(plan.steps.size()))
          throw Error(fmt::format("epoch {} ended after {} of {} steps", epoch, step, plan.steps.size()));
        break;
      }
      if (event != train::BatchStream::Event::kBatch) throw Error("the stream ended early");
      const data::BatchHeader& h = stream.header();
      if (h.epoch != epoch || h.step != step)
        throw Error(fmt::format("got epoch {} step {}, expected epoch {} step {}", h.epoch, h.step, epoch, step));
      if (stream.payload_on_device() && (o.verify || record.is_open()))
        throw Error("--verify and --record read payloads on the CPU; use the MPI transport "
                    "(layout.producer_device=cpu) for them");
      const uint8_t* payload = stream.payload();
      if (!stream.payload_on_device())
        for (size_t i = 0; i < h.payload_bytes; i += 4096) checksum += payload[i];
      if (o.verify) {
        assembler.assemble(plan.steps[step][me.trainer_index], epoch, step, expected);
        if (expected.size() != data::kHeaderBytes + h.payload_bytes ||
            std::memcmp(expected.data() + data::kHeaderBytes, payload, h.payload_bytes) != 0)
          throw Error(fmt::format("epoch {} step {}: the batch differs from the cache's bytes", epoch, step));
      }
      if (record.is_open()) {
        const int32_t* ids = data::payload_array<int32_t>(payload, data::payload_layout(h).ids);
        record << epoch << ' ' << step << ' ' << fmt::format("{}", fmt::join(ids, ids + h.batch_size, ",")) << '\n';
      }
      result.bytes += static_cast<int64_t>(data::kHeaderBytes + h.payload_bytes);
      ++result.batches;
      stream.done();
      if (result.batches == kill_after) std::raise(SIGKILL);
    }
  }
  if (stream.next() != train::BatchStream::Event::kEndOfData) throw Error("expected the end of the stream");
  result.wait = stream.wait_seconds();
  result.seconds = seconds_since(start);
  log::get("bench")->debug("trainer checksum {}", checksum);
  return result;
}

void report(const std::vector<double>& rows, bool verified) {
  double sent = 0, sent_bytes = 0, seconds = 0, back_pressure = 0, assembly = 0, raw_seconds = 0, raw_bytes = 0;
  double only_seconds = 0, only_bytes = 0;
  double received = 0, wait = 0, busy = 0, worst_wait = 0;
  for (size_t i = 0; i < rows.size(); i += 10) {
    const double* r = &rows[i];
    if (r[0] == static_cast<double>(comm::Role::kProducer)) {
      sent += r[1], sent_bytes += r[2], seconds = std::max(seconds, r[3]), back_pressure += r[4];
      assembly += r[5], raw_seconds = std::max(raw_seconds, r[6]), raw_bytes += r[7];
      only_seconds = std::max(only_seconds, r[8]), only_bytes += r[9];
    } else {
      received += r[1], wait += r[4], busy += r[3], worst_wait = std::max(worst_wait, r[4] / r[3]);
    }
  }
  if (received != sent)
    throw Error(fmt::format("trainers received {} batches but producers sent {}", received, sent));
  const double only_mbps = only_bytes / only_seconds / 1e6, raw_mbps = raw_bytes / raw_seconds / 1e6;
  fmt::print("channel alone       {:.1f} MB/s (same assembled batch, with credits and notices)\n", only_mbps);
  fmt::print("raw MPI             {:.1f} MB/s (MPI_Isend windows of stream.slots, same message size)\n", raw_mbps);
  fmt::print("channel / raw MPI   {:.3f} (goal >= 0.9)\n", only_mbps / raw_mbps);
  fmt::print("pipeline            {:.0f} batches ({:.2f} MB mean), {:.1f} batches/s, {:.1f} MB/s{}\n", sent,
             sent_bytes / sent / 1e6, sent / seconds, sent_bytes / seconds / 1e6,
             verified ? ", every batch verified against the cache" : "");
  fmt::print("assembly alone      {:.1f} batches/s (one thread, all producers)\n", assembly);
  fmt::print("pipeline / assembly {:.3f}\n", sent / seconds / assembly);
  fmt::print("trainer data wait   {:.1f} % mean, {:.1f} % worst (null trainers do no work: this is the "
             "pipeline's idle share)\n",
             100 * wait / busy, 100 * worst_wait);
  fmt::print("producer blocked    {:.1f} % of its time waiting for credits (back-pressure)\n",
             100 * back_pressure / seconds);
}

int bench_pipeline(const PipelineOptions& o) {
  auto logger = log::get("bench");
  Config config = load_config(o.config.paths, o.config.overrides);
  const comm::Layout layout = comm::job_layout(config.layout);
  if (comm::rank() == 0) logger->info("layout:\n{}", comm::describe(layout));
  if (!o.log_dir.empty()) log::attach_directory(o.log_dir);
  data::CacheReader cache(o.cache);
  cache.require_compatible(config);
  if (!o.record.empty()) std::filesystem::create_directories(o.record);
  const comm::RankPlan& me = layout.ranks[comm::rank()];

  // Per rank: role, batches, bytes, seconds, wait, assembly rate, raw seconds, raw bytes,
  // channel-only seconds, channel-only bytes.
  std::vector<double> row(10, 0.0);
  row[0] = static_cast<double>(me.role);
  const comm::ChannelOptions channel_options = train::channel_options(config.stream);
  const int slots = config.stream.slots;
  const data::Split split = o.split == "validation" ? data::Split::kValidation : data::Split::kTrain;
  if (me.role == comm::Role::kProducer) {
    row[5] = train::assembly_rate(config, cache, static_cast<int>(layout.trainers.size()));
    auto channel = comm::make_producer_channel(layout, comm::rank(), channel_options);
    comm::MessageBuffer sample;
    data::BatchAssembler(cache, config.batch, comm::rank())
        .assemble(data::plan_epoch(train::split_items(cache, data::Split::kTrain), config.batch, 0,
                                   static_cast<int>(layout.trainers.size()))
                      .steps[0][0],
                  0, 0, sample);
    row[8] = channel_only_send(*channel, me.trainers, sample, o.raw_rounds, slots);
    row[9] = static_cast<double>(sample.size()) * o.raw_rounds * me.trainers.size();
    train::StreamSpec spec{o.epochs, {o.start_epoch, o.start_step}, split};
    train::ProducerStats stats = train::run_producer(config, cache, layout, *channel, spec);
    row[1] = stats.batches, row[2] = stats.payload_bytes, row[3] = stats.seconds, row[4] = stats.send_wait_seconds;
    comm::barrier();
    row[6] = comm::raw_send_seconds(me.trainers, sample.size(), o.raw_rounds, slots);
    row[7] = row[9];
  } else {
    auto channel = comm::make_trainer_channel(layout, comm::rank(), channel_options);
    channel_only_receive(*channel);
    TrainerResult r = run_null_trainer(config, cache, layout, *channel, o);
    row[1] = r.batches, row[2] = r.bytes, row[3] = r.seconds, row[4] = r.wait;
    comm::barrier();
    comm::raw_receive(me.producer);
  }
  const std::vector<double> all = comm::gather_to_root(row);
  if (comm::rank() == 0) report(all, o.verify);
  return 0;
}
}  // namespace

void add_pipeline_bench(CLI::App& bench, Action& action) {
  auto* command = bench.add_subcommand("pipeline", "producer -> null trainers: channel throughput and correctness");
  auto o = std::make_shared<PipelineOptions>();
  o->config.add_to(*command);
  command->add_option("--cache", o->cache, "cache directory or features.h5")->required();
  command->add_option("--epochs", o->epochs, "epochs to stream")->check(CLI::PositiveNumber);
  command->add_option("--start-epoch", o->start_epoch, "resume cursor: first epoch")->check(CLI::NonNegativeNumber);
  command->add_option("--start-step", o->start_step, "resume cursor: first step of that epoch")->check(CLI::NonNegativeNumber);
  command->add_option("--split", o->split, "which split to stream")->check(CLI::IsMember({"train", "validation"}));
  command->add_flag("--verify", o->verify, "trainers compare every batch with their own assembly from the cache");
  command->add_option("--rounds", o->raw_rounds, "messages per trainer in the channel-only and raw MPI phases")
      ->check(CLI::PositiveNumber);
  command->add_option("--log-dir", o->log_dir, "directory for one log file per rank (trainers' data-wait lines)");
  command->add_option("--record", o->record, "directory for per-trainer batch logs (epoch step ids)");
  command->callback([&action, o] { action = [o] { return bench_pipeline(*o); }; });
}

}  // namespace myxtts::cli
