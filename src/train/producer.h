#pragma once
// The producer rank: plans each epoch, assembles its trainers' batches on reader threads ahead
// of time, and sends them in order over the channel (credit flow control bounds what is in
// flight). Ends every epoch and the stream with a notice; on failure it sends its error text
// to its trainers before giving up, so they exit with the producer's message.
#include <cstdint>
#include <vector>

#include "comm/channel.h"
#include "comm/layout.h"
#include "core/config.h"
#include "data/cache_reader.h"
#include "data/sampler.h"

namespace myxtts::train {

struct StreamSpec {
  int epochs = 1;                  // epochs streamed, starting at start.epoch
  data::Cursor start;              // resume point
  data::Split split = data::Split::kTrain;
  // Training schedule, in batches per trainer: stop after `max_batches` (-1: after `epochs`);
  // with `validation_every` > 0, stream the whole validation split (batches and an end-of-epoch
  // notice marked split 1) whenever batches_done + batches sent is a multiple of it, and at the end.
  int64_t max_batches = -1;
  int64_t validation_every = 0;
  int64_t batches_done = 0;
};

comm::ChannelOptions channel_options(const StreamConfig& stream);

struct ProducerStats {
  int64_t batches = 0;
  int64_t payload_bytes = 0;
  double seconds = 0.0;        // from the first assembly to the last delivery
  double send_wait_seconds = 0.0;  // blocked on trainers' credits (back-pressure)
};

// Utterance lengths and speakers of one split, as the sampler wants them.
std::vector<data::UtteranceLength> split_items(const data::CacheReader& cache, data::Split split);

// Batches per second one thread assembles from the cache (no channel): the producer's own bound.
double assembly_rate(const Config& config, const data::CacheReader& cache, int trainers);

// Runs on a producer rank until the stream has ended (collective with its trainers). Logs
// batches/s, MB/s, the ready queue and credits in use every stream.metrics_interval_seconds.
ProducerStats run_producer(const Config& config, const data::CacheReader& cache,
                           const comm::Layout& layout, comm::ProducerChannel& channel,
                           const StreamSpec& spec);

}  // namespace myxtts::train
