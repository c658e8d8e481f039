// The written map of a simulated buffer (sim/storage.h WrittenMap): ranges set and tested a
// word at a time give what element-by-element bookkeeping gives — ranges inside one word,
// across a word boundary, over whole words, empty ones — and the map turns into "all written"
// exactly when its last element is written.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/storage.h"

using nki::sim::WrittenMap;

namespace {

// Whether every element of [e, e + n) is set in the reference.
bool all_set(const std::vector<bool>& ref, int64_t e, int64_t n) {
  for (int64_t i = e; i < e + n; ++i)
    if (!ref[static_cast<size_t>(i)]) return false;
  return true;
}

} // namespace

TEST(WrittenMap, ranges_set_and_test_what_single_elements_would) {
  const int64_t elems = 1000; // 15 whole words and a partial one
  WrittenMap m;
  m.reset(elems);
  std::vector<bool> ref(elems, false);
  uint32_t seed = 7;
  auto next = [&](int64_t bound) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int64_t>((seed >> 8) % static_cast<uint32_t>(bound));
  };
  // Fixed cases first (one bit, a word's last bit, a boundary pair, whole words, an empty
  // range), then random ones, each tested against the reference at random places after it.
  std::vector<std::pair<int64_t, int64_t>> ranges = {{3, 1},     {63, 1},  {127, 2},
                                                     {192, 128}, {500, 0}, {70, 6}};
  for (int i = 0; i < 60; ++i) {
    const int64_t e = next(elems), n = next(std::min<int64_t>(elems - e, 150) + 1);
    ranges.push_back({e, n});
  }
  for (auto [e, n] : ranges) {
    m.set_range(e, n);
    for (int64_t i = e; i < e + n; ++i) ref[static_cast<size_t>(i)] = true;
    if (m.all()) break;
    for (int t = 0; t < 40; ++t) {
      const int64_t a = next(elems), k = next(std::min<int64_t>(elems - a, 140) + 1);
      ASSERT_EQ(m.test_range(a, k), all_set(ref, a, k)) << a << "+" << k << " after " << e;
    }
    for (int64_t i = 0; i < elems; ++i) ASSERT_EQ(m.test(i), ref[static_cast<size_t>(i)]) << i;
  }
  EXPECT_TRUE(m.test_range(10, 0)); // an empty range is written
  // Filling the gaps leaves the map all written exactly with its last missing element.
  std::vector<int64_t> gaps;
  for (int64_t i = 0; i < elems; ++i)
    if (!ref[static_cast<size_t>(i)]) gaps.push_back(i);
  ASSERT_FALSE(gaps.empty());
  for (size_t g = 0; g < gaps.size(); ++g) {
    EXPECT_FALSE(m.all()) << gaps[g];
    m.set_range(gaps[g], 1);
  }
  EXPECT_TRUE(m.all());
  EXPECT_EQ(m.count(), elems);
}

TEST(WrittenMap, a_range_ending_at_the_last_element_of_a_partial_word) {
  WrittenMap m;
  m.reset(70);
  m.set_range(0, 64);
  EXPECT_FALSE(m.test_range(60, 5));
  m.set_range(64, 6);
  EXPECT_TRUE(m.all());
  m.reset(70);
  m.set_range(65, 5);
  EXPECT_TRUE(m.test_range(65, 5));
  EXPECT_FALSE(m.test_range(64, 2));
  EXPECT_FALSE(m.test(64));
  EXPECT_EQ(m.count(), 5);
}

TEST(WrittenMap, writes_in_order_from_the_start_keep_a_prefix_that_meets_later_bits) {
  WrittenMap m;
  m.reset(1000);
  // Rows in order: a prefix only.
  for (int64_t e = 0; e < 600; e += 100) {
    EXPECT_FALSE(m.test(e));
    m.set_range(e, 100);
    EXPECT_TRUE(m.test_range(0, e + 100));
    EXPECT_FALSE(m.test_range(e + 50, 51));
  }
  EXPECT_EQ(m.count(), 600);
  // Writes beyond it, then the gap: the prefix runs on over what was already written.
  m.set_range(700, 50);
  m.set_range(800, 200);
  EXPECT_TRUE(m.test_range(700, 50));
  EXPECT_FALSE(m.test_range(590, 120));
  EXPECT_EQ(m.count(), 850);
  m.set_range(600, 100);
  EXPECT_TRUE(m.test_range(0, 750));
  EXPECT_FALSE(m.test(750));
  EXPECT_EQ(m.count(), 950);
  m.set_range(740, 20); // overlapping both sides of the prefix's end
  EXPECT_EQ(m.count(), 960);
  EXPECT_FALSE(m.all());
  for (int64_t e = 760; e < 800; ++e) m.set(e);
  EXPECT_TRUE(m.all());
  // Whole words of bits met at a word's start: the prefix runs over them a word at a time.
  m.reset(1000);
  m.set_range(64, 192); // words 1 to 3
  m.set_range(300, 10);
  m.set_range(0, 64);
  EXPECT_EQ(m.count(), 266);
  EXPECT_TRUE(m.test_range(0, 256));
  EXPECT_FALSE(m.test(256));
  m.set_range(256, 44); // the prefix reaches 300, then runs over [300, 310)
  EXPECT_TRUE(m.test_range(0, 310));
  EXPECT_FALSE(m.test(310));
  EXPECT_EQ(m.count(), 310);
  // A new allocation forgets it all, bits included.
  m.reset(1000);
  EXPECT_FALSE(m.test(0));
  EXPECT_FALSE(m.test(900));
  EXPECT_EQ(m.count(), 0);
}

TEST(WrittenMap, a_random_mix_of_appends_and_scattered_ranges_matches_single_elements) {
  const int64_t elems = 2000;
  for (uint32_t seed : {3u, 17u, 99u}) {
    WrittenMap m;
    m.reset(elems);
    std::vector<bool> ref(elems, false);
    int64_t filled = 0; // the reference's own prefix
    auto next = [&](int64_t bound) {
      seed = seed * 1664525u + 1013904223u;
      return static_cast<int64_t>((seed >> 8) % static_cast<uint32_t>(bound));
    };
    for (int i = 0; i < 200 && !m.all(); ++i) {
      while (filled < elems && ref[static_cast<size_t>(filled)]) ++filled;
      // Every other range starts at (or just before) the first unwritten element.
      const int64_t e = i % 2 ? std::max<int64_t>(0, filled - next(3)) : next(elems);
      const int64_t n = next(std::min<int64_t>(elems - e, 120) + 1);
      m.set_range(e, n);
      for (int64_t k = e; k < e + n; ++k) ref[static_cast<size_t>(k)] = true;
      int64_t want = 0;
      for (bool b : ref) want += b;
      ASSERT_EQ(m.all() ? elems : m.count(), want) << i;
      for (int t = 0; t < 30; ++t) {
        const int64_t a = next(elems), k = next(std::min<int64_t>(elems - a, 200) + 1);
        ASSERT_EQ(m.test_range(a, k), all_set(ref, a, k)) << a << "+" << k;
      }
      for (int64_t k = 0; k < elems; k += 7) ASSERT_EQ(m.test(k), ref[static_cast<size_t>(k)]);
    }
  }
}
