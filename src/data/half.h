#pragma once
// IEEE 754 binary16 conversions for fp16 batches, without a dependency on libtorch.
#include <cstdint>
#include <cstring>

namespace myxtts::data {

// Round to nearest even; overflow becomes infinity, NaN stays NaN.
inline uint16_t float_to_half(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504
  if (abs < 0x38800000u) {  // subnormal or zero in half precision
    if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
    // value = mantissa * 2^(e - 150) = half * 2^-24, so half = mantissa >> (126 - e).
    const uint32_t shift = 126 - (abs >> 23);
    const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = ((abs - 0x38000000u) >> 13);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu, f;
  if (exponent == 0x1f) {
    f = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      f = sign;
    } else {  // normalise a subnormal
      exponent = 113;
      while (!(mantissa & 0x400u)) mantissa <<= 1, --exponent;
      f = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else {
    f = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float out;
  std::memcpy(&out, &f, 4);
  return out;
}

}  // namespace myxtts::data
