// The trainers' collectives under `mpirun -np 4` (1 producer + 3 trainers, no GPUs): exact sums,
// float arrays long enough to be cut into pieces, max, replica checks, and bit-identical results
// where the rounding depends on the order of summation. Prints every failed check; exits
// non-zero on any.
#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "comm/collectives.h"
#include "comm/world.h"
#include "core/config.h"
#include "core/error.h"

namespace {

using namespace myxtts;

int g_failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failures;
  fmt::print(stderr, "rank {}: FAILED: {}\n", comm::rank(), what);
}

template <class F>
void expect_error(F&& f, const std::string& what) {
  try {
    f();
    expect(false, what + ": no Error thrown");
  } catch (const Error&) {
  }
}

// Multiples of 1/4 of magnitude below 2^15: every partial sum, in any order, is exact in float.
float gradient(int trainer, size_t i) {
  return static_cast<float>(i % 8192) * 0.25f * static_cast<float>(trainer + 1) - static_cast<float>(trainer);
}

void check_float_sums(comm::TrainerGroup& group) {
  // 20 000 003 floats are two pieces of the 64 MiB chunking, the second one ragged.
  for (size_t count : {size_t{1}, size_t{1000}, size_t{20'000'003}}) {
    std::vector<float> data(count);
    for (size_t i = 0; i < count; ++i) data[i] = gradient(group.index(), i);
    group.all_reduce_sum(data.data(), count, false);
    size_t wrong = 0, first = 0;
    float expected_first = 0;
    for (size_t i = 0; i < count; ++i) {
      double expected = 0;
      for (int t = 0; t < group.size(); ++t) expected += gradient(t, i);
      if (data[i] != static_cast<float>(expected) && wrong++ == 0) {
        first = i;
        expected_first = static_cast<float>(expected);
      }
    }
    expect(wrong == 0, fmt::format("float sum of {} values: {} wrong, first [{}] = {} instead of {}",
                                   count, wrong, first, wrong ? data[first] : 0.0f, expected_first));
  }
}

void check_double_sums(comm::TrainerGroup& group) {
  std::vector<double> data(5);
  for (size_t k = 0; k < data.size(); ++k) data[k] = (group.index() + 1) * (k + 0.5);
  group.all_reduce_sum(data.data(), data.size());
  const int n = group.size();
  for (size_t k = 0; k < data.size(); ++k)
    expect(data[k] == (k + 0.5) * n * (n + 1) / 2,
           fmt::format("double sum [{}] = {} instead of {}", k, data[k], (k + 0.5) * n * (n + 1) / 2));
}

void check_max(comm::TrainerGroup& group) {
  const int last = group.size() - 1;
  double got = group.all_reduce_max(group.index() * 2.5 - 1);
  expect(got == last * 2.5 - 1, fmt::format("max = {} instead of {}", got, last * 2.5 - 1));
  got = group.all_reduce_max(-10.0 - group.index());
  expect(got == -10.0, fmt::format("max of negatives = {} instead of -10", got));
}

void check_all_equal(comm::TrainerGroup& group) {
  const int last = group.size() - 1;
  expect(group.all_equal(42), "all_equal(42 everywhere) is false");
  expect(group.all_equal(~uint64_t{0}), "all_equal(2^64-1 everywhere) is false");
  expect(!group.all_equal(group.index() == last ? 43 : 42), "all_equal is true with the last trainer at 43");
  expect(!group.all_equal(group.index() == 0 ? 0 : ~uint64_t{0}),
         "all_equal is true with trainer 0 at 0 and the others at 2^64-1");
}

template <class T>
uint64_t hash_bits(const std::vector<T>& values) {  // FNV-1a
  uint64_t h = 14695981039346656037ull;
  std::vector<unsigned char> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

// Each element sums big, 1 and -big spread over the trainers: (big + 1) - big and (big - big) + 1
// round differently, so only a single order of summation makes the trainers agree to the bit.
void check_bit_identity(comm::TrainerGroup& group) {
  const size_t count = 1'000'003;
  std::vector<float> floats(count);
  std::vector<double> doubles(count);
  for (size_t i = 0; i < count; ++i) {
    const double scale = 1 + static_cast<double>(i % 97) * 1e-3;
    const size_t term = (i + group.index()) % 3;
    const double float_terms[3] = {1e8 * scale, scale, -1e8}, double_terms[3] = {1e17 * scale, scale, -1e17};
    floats[i] = static_cast<float>(float_terms[term]);
    doubles[i] = double_terms[term];
  }
  group.all_reduce_sum(floats.data(), count, false);
  group.all_reduce_sum(doubles.data(), count);
  expect(group.all_equal(hash_bits(floats)), "order-sensitive float sums differ between trainers");
  expect(group.all_equal(hash_bits(doubles)), "order-sensitive double sums differ between trainers");
}

void run(const comm::Layout& layout) {
  expect(layout.producers.size() == 1 && layout.trainers.size() == 3,
         fmt::format("layout has {} producer(s) and {} trainer(s), expected 1 and 3 (run with -np 4)",
                     layout.producers.size(), layout.trainers.size()));
  const comm::RankPlan& me = layout.ranks.at(comm::rank());
  {
    auto group = comm::make_trainer_group(layout, comm::rank(), false);
    if (me.role == comm::Role::kProducer) {
      expect(group == nullptr, "producer got a trainer group");
    } else if (!group) {
      expect(false, "trainer got no trainer group");
    } else {
      expect(group->size() == 3, fmt::format("group size {} instead of 3", group->size()));
      expect(group->index() == me.trainer_index,
             fmt::format("group index {} instead of trainer_index {}", group->index(), me.trainer_index));
      check_float_sums(*group);
      check_double_sums(*group);
      check_max(*group);
      check_all_equal(*group);
      check_bit_identity(*group);
      float x = 1;
      expect_error([&] { group->all_reduce_sum(&x, 1, true); }, "device all-reduce without NCCL");
    }
  }
  // NCCL asked for with the trainers on the CPU: a clear Error on every trainer, no hang.
  if (me.role == comm::Role::kProducer)
    expect(comm::make_trainer_group(layout, comm::rank(), true) == nullptr, "producer got an NCCL group");
  else
    expect_error([&] { comm::make_trainer_group(layout, comm::rank(), true); }, "NCCL group on CPU trainers");
}

}  // namespace

int main(int argc, char** argv) {
  comm::init(&argc, &argv);
  try {
    LayoutConfig config;
    config.gpus_per_node = 0;
    run(comm::job_layout(config));
  } catch (const std::exception& e) {
    // The other ranks may be waiting in a collective this rank will never join.
    fmt::print(stderr, "rank {}: FAILED with an exception: {}\n", comm::rank(), e.what());
    comm::abort(1);
  }
  fmt::print("rank {}: {}\n", comm::rank(), g_failures ? fmt::format("{} check(s) failed", g_failures) : "ok");
  comm::finalize();
  return g_failures ? 1 : 0;
}
