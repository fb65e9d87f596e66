#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace myxtts::data {

// Validation membership (1) per utterance: the `count` ids with the smallest hash of
// (seed, id), so the split depends only on the ids and the seed, never on order or ranks.
// count < 0 means round(fraction * n), at least 1 when n >= 2.
std::vector<uint8_t> assign_validation(const std::vector<std::string>& ids, double fraction,
                                       int count, int64_t seed);

}  // namespace myxtts::data
