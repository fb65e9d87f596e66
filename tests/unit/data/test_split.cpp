#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "data/split.h"

namespace myxtts::data {
namespace {

std::vector<std::string> ids(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("utt" + std::to_string(i));
  return out;
}

int count(const std::vector<uint8_t>& v) { return std::accumulate(v.begin(), v.end(), 0); }

TEST(Split, SizeFollowsFractionOrCount) {
  EXPECT_EQ(count(assign_validation(ids(1000), 0.02, -1, 1)), 20);
  EXPECT_EQ(count(assign_validation(ids(1000), 0.02, 7, 1)), 7);
  EXPECT_EQ(count(assign_validation(ids(10), 0.01, -1, 1)), 1);  // at least one
  EXPECT_EQ(count(assign_validation(ids(1), 0.5, -1, 1)), 0);    // never everything
  EXPECT_EQ(count(assign_validation(ids(5), 0.0, 3, 1)), 3);
}

TEST(Split, DependsOnIdsAndSeedNotOnOrder) {
  auto a = ids(200);
  auto split = assign_validation(a, 0.1, -1, 42);
  auto b = a;
  std::reverse(b.begin(), b.end());
  auto reversed = assign_validation(b, 0.1, -1, 42);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(split[i], reversed[a.size() - 1 - i]);
  EXPECT_NE(split, assign_validation(a, 0.1, -1, 43));
}

}  // namespace
}  // namespace myxtts::data
