#pragma once
// A cache of random features written through the real CacheWriter: for benchmarks that need
// large caches quickly and for tests of the reader.
#include <string>

#include "core/config.h"

namespace myxtts::data {

// `utterances` utterances of `frames` frames each, 4 tokens each, every 50th in validation.
void write_synthetic_cache(const std::string& path, const Config& config, int utterances, int frames);

}  // namespace myxtts::data
