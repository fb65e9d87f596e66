#include "core/fingerprint.h"

#include <fmt/format.h>

namespace myxtts {

uint64_t fnv1a64(std::string_view text, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string fingerprint(std::string_view text) { return fmt::format("{:016x}", fnv1a64(text)); }

}  // namespace myxtts
