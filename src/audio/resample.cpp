#include "audio/resample.h"

#include <soxr.h>

#include <cmath>

#include "core/check.h"

namespace myxtts::audio {
namespace {

unsigned long soxr_recipe(const std::string& quality) {
  if (quality == "quick") return SOXR_QQ;
  if (quality == "low") return SOXR_LQ;
  if (quality == "medium") return SOXR_MQ;
  if (quality == "very_high") return SOXR_VHQ;
  return SOXR_HQ;
}

}  // namespace

std::vector<float> resample(const std::vector<float>& mono, int from_rate, int to_rate,
                            const std::string& quality) {
  if (from_rate == to_rate) return mono;
  const size_t out_length = static_cast<size_t>(
      std::llround(static_cast<double>(mono.size()) * to_rate / from_rate));
  std::vector<float> out(out_length);
  soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
  soxr_quality_spec_t q = soxr_quality_spec(soxr_recipe(quality), 0);
  soxr_runtime_spec_t runtime = soxr_runtime_spec(1);  // parallelism comes from our workers
  size_t done = 0;
  soxr_error_t error = soxr_oneshot(from_rate, to_rate, 1, mono.data(), mono.size(), nullptr,
                                    out.data(), out.size(), &done, &io, &q, &runtime);
  if (error) MYX_FAIL_CALL("libsoxr", "soxr_oneshot", error);
  out.resize(done);
  return out;
}

}  // namespace myxtts::audio
