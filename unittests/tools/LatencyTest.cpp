//===- LatencyTest.cpp - Latency buckets, percentiles, aggregation ---------===//
//
// Part of ActiveTime. The log-linear bucket layout shared by runtime and
// tool (activetime/latency.h): index, bounds, relative width, edge values;
// the percentiles of a histogram; and the sums per function and tree node
// (recursion: every call once).
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Latency.h"
#include "activetime/latency.h"
#include "activetime/raw_format.h"

#include "ProfileTestUtil.h"
#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::latency;
using namespace activetime::profile;

namespace {

TEST(LatencyBuckets, SmallValuesAreExact) {
  for (uint64_t V = 0; V < 16; ++V) {
    EXPECT_EQ(bucketOf(V), V);
    EXPECT_EQ(bucketLower(uint32_t(V)), V);
    EXPECT_EQ(bucketUpper(uint32_t(V)), V);
  }
}

TEST(LatencyBuckets, Octaves) {
  // [16, 32) in 8 buckets of 2 ticks; [1024, 2048) in 8 of 128.
  EXPECT_EQ(bucketOf(16), 16u);
  EXPECT_EQ(bucketOf(17), 16u);
  EXPECT_EQ(bucketOf(18), 17u);
  EXPECT_EQ(bucketOf(31), 23u);
  EXPECT_EQ(bucketOf(32), 24u);
  EXPECT_EQ(bucketLower(17), 18u);
  EXPECT_EQ(bucketUpper(17), 19u);
  EXPECT_EQ(bucketOf(1024), 64u);
  EXPECT_EQ(bucketOf(1151), 64u);
  EXPECT_EQ(bucketOf(1152), 65u);
  EXPECT_EQ(bucketLower(65), 1152u);
  EXPECT_EQ(bucketUpper(65), 1279u);
}

TEST(LatencyBuckets, HugeValues) {
  EXPECT_EQ(bucketOf(~uint64_t(0)), kLatencyBuckets - 1);
  EXPECT_EQ(bucketUpper(kLatencyBuckets - 1), ~uint64_t(0));
  EXPECT_EQ(bucketLower(kLatencyBuckets - 1), uint64_t(15) << 60);
  EXPECT_EQ(bucketOf(uint64_t(1) << 63), kLatencyBuckets - 8);
  // An hour at 5 GHz fits well inside.
  EXPECT_LT(bucketOf(uint64_t(3600) * 5000000000ull), kLatencyBuckets - 100);
}

TEST(LatencyBuckets, ContiguousRoundTripAndNarrow) {
  for (uint32_t B = 0; B < kLatencyBuckets; ++B) {
    uint64_t Lo = bucketLower(B), Hi = bucketUpper(B);
    ASSERT_LE(Lo, Hi) << B;
    if (B)
      ASSERT_EQ(Lo, bucketUpper(B - 1) + 1) << B;
    ASSERT_EQ(bucketOf(Lo), B);
    ASSERT_EQ(bucketOf(Hi), B);
    // The stated error bound: a bucket is narrower than 1/8 of its lower
    // bound, so its upper bound is within 12.5% of any value in it.
    if (B >= 16)
      ASSERT_LT((Hi - Lo) * 8, Lo) << B;
  }
}

LatencyHistogram histogram(uint64_t Rate,
                           std::vector<std::pair<uint64_t, uint64_t>> ValueCounts) {
  std::vector<LatencyCount> L;
  for (auto [V, C] : ValueCounts)
    L.push_back({bucketOf(V), C});
  LatencyHistogram H;
  H.add(Rate, L);
  return H;
}

TEST(LatencyPercentile, NearestRankUpperBoundClamped) {
  // 90 calls of 1000 ticks, 10 of 100000, at 1 GHz (1 tick = 1 ns).
  LatencyHistogram H = histogram(1000000000, {{1000, 90}, {100000, 10}});
  EXPECT_EQ(H.total(), 100u);
  // 1000 is in [960, 1023]; 100000 in [98304, 106495].
  EXPECT_DOUBLE_EQ(H.percentile(50, 990, 100500), 1023);
  EXPECT_DOUBLE_EQ(H.percentile(90, 990, 100500), 1023);  // rank 90
  EXPECT_DOUBLE_EQ(H.percentile(91, 990, 100500), 100500); // clamped to max
  EXPECT_DOUBLE_EQ(H.percentile(99, 990, 110000), 106495);
  // Clamped to the exact min when the bucket's bound is below it.
  EXPECT_DOUBLE_EQ(H.percentile(50, 1100, 100500), 1100);
  EXPECT_DOUBLE_EQ(LatencyHistogram().percentile(50, 0, 0), 0);
}

TEST(LatencyPercentile, RanksOfSmallCounts) {
  // One call: every percentile is it. 0 ticks: exact bucket.
  LatencyHistogram One = histogram(1000000000, {{0, 1}});
  EXPECT_DOUBLE_EQ(One.percentile(50, 0, 0), 0);
  EXPECT_DOUBLE_EQ(One.percentile(99, 0, 0), 0);
  // 100 calls 1..100 ticks: p99 is rank 99 (99 is in [96, 103]).
  std::vector<std::pair<uint64_t, uint64_t>> V;
  for (uint64_t I = 1; I <= 100; ++I)
    V.push_back({I, 1});
  LatencyHistogram H = histogram(1000000000, V);
  EXPECT_DOUBLE_EQ(H.percentile(99, 1, 100), 100); // 103 clamped to max
  EXPECT_DOUBLE_EQ(H.percentile(50, 1, 100), 51);  // 50 in [48, 51]
  EXPECT_DOUBLE_EQ(H.percentile(10, 1, 100), 10);  // exact bucket
}

TEST(LatencyPercentile, TickRateConvertsAndMergesKeepRatesApart) {
  // 2 GHz: 2000 ticks = 1 us; its bucket [1920, 2047] ticks.
  LatencyHistogram A = histogram(2000000000, {{2000, 3}});
  LatencyHistogram B = histogram(1000000000, {{500, 1}});
  A.add(B);
  EXPECT_EQ(A.total(), 4u);
  std::vector<LatencyBin> Bins = A.bins();
  ASSERT_EQ(Bins.size(), 2u);
  EXPECT_DOUBLE_EQ(Bins[0].LowerNs, 480); // 500 in [480, 511]
  EXPECT_DOUBLE_EQ(Bins[0].UpperNs, 511);
  EXPECT_DOUBLE_EQ(Bins[1].LowerNs, 960);
  EXPECT_DOUBLE_EQ(Bins[1].UpperNs, 1023.5);
  EXPECT_EQ(Bins[1].Count, 3u);
}

Profile recursiveProfile(const uint64_t (&Ticks)[3]);

// The writer (merge) writes what the reader read, and refuses a model whose
// histograms the reader would refuse.
TEST(LatencyIO, RoundTripAndRefusal) {
  uint64_t Ticks[3] = {3000, 2000, 1000};
  Profile P = recursiveProfile(Ticks);
  P.Processes[0].Threads[0].Nodes[1].Latency = {{bucketOf(5), 1}};
  P.Processes[0].Threads[0].Nodes[1].Calls = 1;
  std::string Bytes = testutil::serialize(P);
  llvm::Expected<Profile> Q = testutil::parse(Bytes);
  ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
  const Thread &T = Q->Processes[0].Threads[0];
  EXPECT_TRUE(T.Flags & raw::TF_Latency);
  ASSERT_EQ(T.Nodes.size(), 3u);
  for (uint32_t I = 0; I < 3; ++I) {
    ASSERT_EQ(T.Nodes[I].Latency.size(), 1u);
    EXPECT_EQ(T.Nodes[I].Latency[0].Count, 1u);
  }
  EXPECT_EQ(T.Nodes[1].Latency[0].Bucket, 5u);
  EXPECT_EQ(testutil::serialize(*Q), Bytes);

  // Counts that do not sum to the calls: refused before anything is written.
  P.Processes[0].Threads[0].Nodes[2].Latency[0].Count = 2;
  std::string S;
  llvm::raw_string_ostream OS(S);
  llvm::Error E = writeProfile(P, OS);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("inconsistent latency"),
            std::string::npos);
}

// Recursion: f -> f -> f, each call a node of its own; the function's
// distribution has all three calls, the tree nodes one each.
Profile recursiveProfile(const uint64_t (&Ticks)[3]) {
  Profile P;
  Process Pr;
  Pr.TickRate = 1000000000;
  Module M;
  M.Name = "m.c";
  Pr.Modules.push_back(M);
  Function F;
  F.Name = "f";
  Pr.Functions.push_back(F);
  Thread T;
  T.Flags = raw::TF_Latency;
  for (uint32_t I = 0; I < 3; ++I) {
    Node N;
    N.Parent = I ? I - 1 : raw::kNoParent;
    N.Func = 0;
    N.Calls = 1;
    N.Incl = N.Min = N.Max = Ticks[I];
    N.Excl = I < 2 ? Ticks[I] - Ticks[I + 1] : Ticks[I];
    N.Latency = {{bucketOf(Ticks[I]), 1}};
    T.Nodes.push_back(N);
  }
  Pr.Threads.push_back(T);
  P.Processes.push_back(Pr);
  return P;
}

TEST(LatencyTable, RecursionCountsEveryCallOnce) {
  uint64_t Ticks[3] = {3000, 2000, 1000};
  Profile P = recursiveProfile(Ticks);
  Aggregate A = aggregate(P);
  LatencyTable L = latencies(P, A);
  ASSERT_EQ(A.Flat.size(), 1u);
  const LatencyHistogram &H = L.ByFunction[A.Flat[0].Func];
  EXPECT_EQ(H.total(), 3u);
  EXPECT_EQ(A.Flat[0].S.Calls, 3u); // the flat table's calls agree
  EXPECT_DOUBLE_EQ(H.percentile(50, A.Flat[0].S.Min, A.Flat[0].S.Max), 2047);
  ASSERT_EQ(A.Tree.size(), 4u);
  for (uint32_t I = 1; I < 4; ++I)
    EXPECT_EQ(L.ByTreeNode[I].total(), 1u);
  EXPECT_TRUE(L.Any);
}

} // namespace
