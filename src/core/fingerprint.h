#pragma once
#include <string>
#include <cstdint>
#include <string_view>

namespace myxtts {

// Stable 64-bit FNV-1a digest as 16 hex digits: identifies the parameters behind a cache.
std::string fingerprint(std::string_view text);
uint64_t fnv1a64(std::string_view text, uint64_t seed = 0xcbf29ce484222325ULL);

}  // namespace myxtts
