#pragma once
// Producer side of a batch: cache rows of a BatchPlan -> header + padded contiguous payload.
#include <cstdint>
#include <vector>

#include "core/config.h"
#include "data/batch_format.h"
#include "data/cache_reader.h"
#include "data/sampler.h"

namespace myxtts::data {

class BatchAssembler {
 public:
  BatchAssembler(const CacheReader& cache, const BatchConfig& config, int sender_rank);
  // Writes the whole message (header, then payload) into `message`, resized and overwritten
  // (reuse it across batches to avoid allocations). Tokens are padded with <pad> (0), mels and
  // reference mels with the cache's silence value.
  BatchHeader assemble(const BatchPlan& plan, int epoch, int step, MessageBuffer& message) const;

 private:
  const CacheReader& cache_;
  BatchConfig config_;
  MelType mel_type_;
  int sender_;
};

// Typed pointer to the array at `offset` (from payload_layout) of a payload, or of the
// payload inside a whole message.
template <class T>
const T* payload_array(const uint8_t* payload, size_t offset) {
  return reinterpret_cast<const T*>(payload + offset);
}
template <class T>
const T* payload_array(const MessageBuffer& message, size_t offset) {
  return payload_array<T>(message.data() + kHeaderBytes, offset);
}

}  // namespace myxtts::data
