#include "train/producer.h"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "comm/world.h"
#include "core/error.h"
#include "core/fault.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "data/batch_assembler.h"

namespace myxtts::train {
namespace {
using Clock = std::chrono::steady_clock;

// One message for one trainer: a planned batch, or (plan == nullptr) an end-of-epoch notice.
struct Task {
  int epoch = 0;
  int step = 0;
  int trainer = 0;
  std::shared_ptr<const data::EpochPlan> epoch_plan;
  const data::BatchPlan* plan = nullptr;
  data::Split split = data::Split::kTrain;
};

// Tasks in send order, planned one step at a time as the stream needs them: training steps,
// end-of-epoch notices and, on the training schedule, validation passes.
class TaskList {
 public:
  TaskList(const data::CacheReader& cache, const BatchConfig& batch, const comm::Layout& layout, int rank,
           const StreamSpec& spec)
      : items_(split_items(cache, spec.split)), batch_(batch), layout_(layout), rank_(rank), spec_(spec),
        trainers_(static_cast<int>(layout.trainers.size())) {
    if (spec.validation_every > 0)
      validation_ = std::make_shared<const data::EpochPlan>(
          data::plan_epoch(split_items(cache, data::Split::kValidation), batch, 0, trainers_));
  }

  // Plans until task `id` exists or the stream is exhausted; false past the end.
  bool ensure(size_t id) {
    while (base_ + tasks_.size() <= id && !finished_) plan_next();
    return id < base_ + tasks_.size();
  }
  const Task& operator[](size_t id) const { return tasks_[id - base_]; }
  // Forgets tasks before `id` (sent), so long runs keep only the plans still in use.
  void drop_before(size_t id) {
    while (base_ < id && !tasks_.empty()) tasks_.pop_front(), ++base_;
  }

 private:
  void plan_next() {
    if (!epoch_plan_) {
      if (next_epoch_ >= spec_.start.epoch + spec_.epochs) {
        finished_ = true;
        return;
      }
      step_ = next_epoch_ == spec_.start.epoch ? spec_.start.step : 0;
      epoch_plan_ = std::make_shared<const data::EpochPlan>(data::plan_epoch(items_, batch_, next_epoch_, trainers_));
    }
    if (step_ < static_cast<int>(epoch_plan_->steps.size())) {
      push_step(next_epoch_, step_++, epoch_plan_, data::Split::kTrain);
      ++sent_;
      const bool at_end = sent_ == spec_.max_batches;
      if (validation_ && ((spec_.batches_done + sent_) % spec_.validation_every == 0 || at_end)) push_validation();
      finished_ = at_end;
      return;
    }
    push_end_of_epoch(next_epoch_++, data::Split::kTrain);
    epoch_plan_.reset();
  }

  void push_step(int epoch, int step, const std::shared_ptr<const data::EpochPlan>& plan, data::Split split) {
    for (int t : layout_.ranks[rank_].trainers)
      tasks_.push_back({epoch, step, t, plan, &plan->steps[step][layout_.ranks[t].trainer_index], split});
  }
  void push_end_of_epoch(int epoch, data::Split split) {
    for (int t : layout_.ranks[rank_].trainers) tasks_.push_back({epoch, -1, t, nullptr, nullptr, split});
  }
  void push_validation() {
    for (int step = 0; step < static_cast<int>(validation_->steps.size()); ++step)
      push_step(0, step, validation_, data::Split::kValidation);
    push_end_of_epoch(0, data::Split::kValidation);
  }

  std::vector<data::UtteranceLength> items_;
  BatchConfig batch_;
  const comm::Layout& layout_;
  int rank_;
  StreamSpec spec_;
  int trainers_;
  std::shared_ptr<const data::EpochPlan> epoch_plan_, validation_;
  int next_epoch_ = spec_.start.epoch;
  int step_ = 0;
  int64_t sent_ = 0;  // training steps planned (batches per trainer)
  bool finished_ = false;
  size_t base_ = 0;  // id of tasks_.front()
  std::deque<Task> tasks_;
};

class Producer {
 public:
  Producer(const Config& config, const data::CacheReader& cache, const comm::Layout& layout,
           comm::ProducerChannel& channel, const StreamSpec& spec)
      : tasks_(cache, config.batch, layout, comm::rank(), spec),
        assembler_(cache, config.batch, comm::rank()),
        channel_(channel),
        trainers_(layout.ranks[comm::rank()].trainers),
        // Enough look-ahead to fill every trainer's slots and keep every reader busy.
        lookahead_(trainers_.size() * (config.stream.slots + 1) + config.stream.reader_threads),
        reader_threads_(config.stream.reader_threads),
        metrics_interval_(config.stream.metrics_interval_seconds) {}

  ProducerStats run() {
    const auto start = Clock::now();
    for (int t = 0; t < reader_threads_; ++t) readers_.emplace_back([this] { read_loop(); });
    try {
      send_loop();
    } catch (...) {
      stop_readers();
      throw;
    }
    stop_readers();
    stats_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return stats_;
  }

 private:
  void read_loop() {
    try {
      while (true) {
        size_t id;
        Task task;
        comm::MessageBuffer buffer;
        {
          std::unique_lock<std::mutex> lock(mutex_);
          cv_.wait(lock, [&] { return stop_ || (next_read_ < next_send_ + lookahead_ && tasks_.ensure(next_read_)); });
          if (stop_) return;
          id = next_read_++;
          task = tasks_[id];
          if (!spare_.empty()) buffer = std::move(spare_.back()), spare_.pop_back();
        }
        if (task.plan)
          assembler_.assemble(*task.plan, task.epoch, task.step, buffer);
        else
          buffer = data::make_notice(data::MessageKind::kEndOfEpoch, task.epoch, comm::rank());
        data::set_split(buffer, static_cast<int32_t>(task.split));
        std::lock_guard<std::mutex> lock(mutex_);
        ready_[id] = std::move(buffer);
        cv_.notify_all();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      cv_.notify_all();
    }
  }

  void send_loop() {
    const long fail_after = fault_after("PRODUCER_FAIL_AFTER_BATCHES");
    const long kill_after = fault_after("PRODUCER_KILL_AFTER_BATCHES");
    for (size_t id = 0;; ++id) {
      throw_if_interrupted();
      std::unique_lock<std::mutex> lock(mutex_);
      if (!tasks_.ensure(id)) break;
      const Task task = tasks_[id];
      while (!ready_.count(id) && !failure_) cv_.wait_for(lock, std::chrono::milliseconds(1));
      if (failure_) std::rethrow_exception(failure_);
      comm::MessageBuffer message = std::move(ready_[id]);
      ready_.erase(id);
      next_send_ = id + 1;
      tasks_.drop_before(std::min(next_send_, next_read_));
      cv_.notify_all();
      lock.unlock();

      if (!task.plan) {
        channel_.send_unconditionally(task.trainer, std::move(message));
      } else {
        const size_t bytes = message.size();
        const auto before = Clock::now();
        channel_.send(task.trainer, std::move(message));
        stats_.send_wait_seconds += std::chrono::duration<double>(Clock::now() - before).count();
        stats_.payload_bytes += static_cast<int64_t>(bytes);
        ++stats_.batches;
        if (stats_.batches == fail_after)
          throw Error(fmt::format("injected failure after {} batches (MYXTTS_FAULT_PRODUCER_FAIL_AFTER_BATCHES)", fail_after));
        if (stats_.batches == kill_after) std::raise(SIGKILL);
      }
      recycle_buffers();
      report_metrics();
    }
    for (int t : trainers_)
      channel_.send_unconditionally(t, data::make_notice(data::MessageKind::kEndOfData, -1, comm::rank()));
    channel_.flush();
  }

  void report_metrics() {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - interval_start_).count();
    if (elapsed < metrics_interval_) return;
    size_t queued;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queued = ready_.size();
    }
    std::string credits;
    for (int t : trainers_) credits += fmt::format(" {}:{}", t, channel_.in_flight(t));
    log::get("producer")
        ->info("{:.1f} batches/s, {:.1f} MB/s, {} assembled ahead, in flight per trainer{}",
               (stats_.batches - interval_batches_) / elapsed,
               (stats_.payload_bytes - interval_bytes_) / elapsed / 1e6, queued, credits);
    interval_start_ = now;
    interval_batches_ = stats_.batches;
    interval_bytes_ = stats_.payload_bytes;
  }

  void recycle_buffers() {
    comm::MessageBuffer buffer = channel_.take_buffer();
    if (buffer.capacity() == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.size() < lookahead_) spare_.push_back(std::move(buffer));
  }

  void stop_readers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      cv_.notify_all();
    }
    for (auto& t : readers_) t.join();
    readers_.clear();
  }

  TaskList tasks_;
  data::BatchAssembler assembler_;
  comm::ProducerChannel& channel_;
  std::vector<int> trainers_;
  size_t lookahead_;
  int reader_threads_;
  std::vector<std::thread> readers_;
  std::mutex mutex_;
  std::condition_variable cv_;
  size_t next_read_ = 0, next_send_ = 0;
  std::map<size_t, comm::MessageBuffer> ready_;
  std::vector<comm::MessageBuffer> spare_;
  std::exception_ptr failure_;
  bool stop_ = false;
  ProducerStats stats_;
  double metrics_interval_;
  Clock::time_point interval_start_ = Clock::now();
  int64_t interval_batches_ = 0, interval_bytes_ = 0;
};

}  // namespace

comm::ChannelOptions channel_options(const StreamConfig& stream) {
  comm::ChannelOptions options;
  options.slots = stream.slots;
  options.timeout_seconds = stream.timeout_seconds;
  options.header_bytes = data::kHeaderBytes;
  return options;
}

std::vector<data::UtteranceLength> split_items(const data::CacheReader& cache, data::Split split) {
  const data::CacheIndex& ix = cache.index();
  std::vector<data::UtteranceLength> items;
  size_t unalignable = 0;
  for (size_t i = 0; i < ix.size(); ++i) {
    if (ix.split[i] != static_cast<uint8_t>(split)) continue;
    // Monotonic alignment needs at least one frame per token.
    if (ix.n_tokens[i] < 1 || ix.n_frames[i] < ix.n_tokens[i]) {
      ++unalignable;
      continue;
    }
    items.push_back({static_cast<int32_t>(i), ix.n_frames[i], ix.n_tokens[i], ix.speaker[i]});
  }
  if (unalignable > 0)
    log::get("data")->warn("{}: {} {} utterance(s) have fewer frames than tokens and are left out", cache.path(),
                           unalignable, split == data::Split::kTrain ? "training" : "validation");
  if (items.empty())
    throw Error(fmt::format("cache {} has no {} utterances; check data.val_fraction / data.val_count",
                            cache.path(), split == data::Split::kTrain ? "training" : "validation"));
  return items;
}

double assembly_rate(const Config& config, const data::CacheReader& cache, int trainers) {
  const data::EpochPlan plan = data::plan_epoch(split_items(cache, data::Split::kTrain), config.batch, 0, trainers);
  const data::BatchAssembler assembler(cache, config.batch, comm::rank());
  comm::MessageBuffer message;
  int batches = 0;
  const auto start = Clock::now();
  for (const auto& step : plan.steps)
    for (const auto& batch : step) {
      assembler.assemble(batch, 0, 0, message);
      if (++batches >= 64) return batches / std::chrono::duration<double>(Clock::now() - start).count();
    }
  return batches / std::chrono::duration<double>(Clock::now() - start).count();
}

ProducerStats run_producer(const Config& config, const data::CacheReader& cache,
                           const comm::Layout& layout, comm::ProducerChannel& channel,
                           const StreamSpec& spec) {
  try {
    return Producer(config, cache, layout, channel, spec).run();
  } catch (const std::exception& e) {
    // Tell the trainers why before the job goes down, so they can say it too.
    const std::string text = e.what();
    for (int t : layout.ranks[comm::rank()].trainers)
      channel.send_unconditionally(t, data::make_notice(data::MessageKind::kError, -1, comm::rank(), text));
    try {
      channel.flush();
    } catch (const std::exception&) {  // a dead trainer cannot take the notice; the error stands
    }
    throw;
  }
}

}  // namespace myxtts::train
