#include "data/split.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/fingerprint.h"

namespace myxtts::data {

std::vector<uint8_t> assign_validation(const std::vector<std::string>& ids, double fraction,
                                       int count, int64_t seed) {
  const size_t n = ids.size();
  size_t wanted = count >= 0 ? static_cast<size_t>(count)
                             : static_cast<size_t>(std::llround(fraction * static_cast<double>(n)));
  if (count < 0 && fraction > 0.0 && n >= 2) wanted = std::max<size_t>(wanted, 1);
  wanted = std::min(wanted, n > 0 ? n - 1 : 0);  // always leave something to train on
  const uint64_t salt = fnv1a64(std::to_string(seed));
  std::vector<uint64_t> key(n);
  for (size_t i = 0; i < n; ++i) key[i] = fnv1a64(ids[i], salt);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return key[a] != key[b] ? key[a] < key[b] : ids[a] < ids[b];
  });
  std::vector<uint8_t> validation(n, 0);
  for (size_t i = 0; i < wanted; ++i) validation[order[i]] = 1;
  return validation;
}

}  // namespace myxtts::data
