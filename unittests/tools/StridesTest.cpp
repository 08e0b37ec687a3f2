//===- StridesTest.cpp - Stride classification and prefetch distance -------===//
//
// Part of ActiveTime. Classes and confidence from the merged counts, the
// merge over processes (tick rates differ), and the prefetch distance model.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Strides.h"
#include "activetime/abi.h"

#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::profile;

namespace {

StrideRow dynamicRow(int64_t Dominant, uint64_t Count, uint64_t Adjacent,
                     uint32_t Size = 8) {
  StrideRow R;
  R.Site.AccessSize = Size;
  R.Site.Flags = activetime::abi::MS_InLoop;
  R.Site.Dominant = Dominant;
  R.Site.DominantCount = Count;
  R.Site.Adjacent = Adjacent;
  return R;
}

TEST(StridesTest, Classes) {
  StrideRow R = dynamicRow(0, 90, 100);
  classifySite(R);
  EXPECT_EQ(R.Class, StrideClass::Uniform);
  R = dynamicRow(-8, 80, 100);
  classifySite(R);
  EXPECT_EQ(R.Class, StrideClass::Unit); // 80 % is enough, sign kept
  EXPECT_EQ(R.Stride, -8);
  R = dynamicRow(48, 99, 100);
  classifySite(R);
  EXPECT_EQ(R.Class, StrideClass::Constant);
  EXPECT_DOUBLE_EQ(R.Confidence, 0.99);
  R = dynamicRow(48, 79, 100);
  classifySite(R);
  EXPECT_EQ(R.Class, StrideClass::Irregular);
  R = dynamicRow(0, 0, 0);
  classifySite(R);
  EXPECT_EQ(R.Class, StrideClass::Unknown);
  R = StrideRow();
  R.Site.AccessSize = 4;
  R.Site.Flags = activetime::abi::MS_Static | activetime::abi::MS_InLoop;
  R.Site.StaticStride = -4;
  classifySite(R);
  EXPECT_TRUE(R.Static);
  EXPECT_EQ(R.Class, StrideClass::Unit);
  EXPECT_EQ(R.Confidence, 1);
}

/// A copy of a group: dynamic stride \p Stride at \p Offset.
StrideRow copyRow(uint32_t Group, int64_t Offset, int64_t Stride) {
  StrideRow R = dynamicRow(Stride, 90, 100);
  R.Module = "m.c";
  R.Site.CopyGroup = Group;
  R.Site.CopyOffset = Offset;
  R.Site.Executions = 1000;
  R.Site.Observations = 101;
  R.Site.Differences = 100;
  R.Site.Gcd = uint64_t(Stride < 0 ? -Stride : Stride);
  classifySite(R);
  R.IterNs = 40;
  return R;
}

TEST(StridesTest, FoldCopiesOfAnUnrolledStride) {
  // 4 copies of stride -192 at offsets 0, -96, -48, -144 (any order): one
  // row of stride -48, unroll 4, counts summed, iteration time / 4.
  std::vector<StrideRow> Rows = {copyRow(1, 0, -192), copyRow(1, -96, -192),
                                 StrideRow(), copyRow(1, -48, -192),
                                 copyRow(1, -144, -192)};
  Rows[2].Site.AccessSize = 8;
  std::vector<StrideRow> F = foldCopies(Rows);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Stride, -48);
  EXPECT_EQ(F[0].Unroll, 4u);
  EXPECT_EQ(F[0].CopyStride, -192);
  EXPECT_EQ(F[0].Class, StrideClass::Constant);
  EXPECT_EQ(F[0].Site.Executions, 4000u);
  EXPECT_EQ(F[0].Site.DominantCount, 360u);
  EXPECT_DOUBLE_EQ(F[0].Confidence, 0.9);
  EXPECT_DOUBLE_EQ(*F[0].IterNs, 10);
  EXPECT_TRUE(F[0].FoldNote.empty());
  EXPECT_EQ(F[1].Unroll, 1u); // the row of its own keeps its place
  // Copies of an 8-byte unit stride: constant 32 each, unit when folded.
  F = foldCopies({copyRow(2, 0, 32), copyRow(2, 8, 32), copyRow(2, 16, 32),
                  copyRow(2, 24, 32)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Class, StrideClass::Unit);
}

TEST(StridesTest, CopiesThatDoNotFitStayUnfolded) {
  auto Note = [](std::vector<StrideRow> Rows) {
    std::vector<StrideRow> F = foldCopies(Rows);
    EXPECT_EQ(F.size(), Rows.size());
    for (const StrideRow &R : F)
      EXPECT_EQ(R.FoldNote, F[0].FoldNote);
    return F[0].FoldNote;
  };
  EXPECT_EQ(Note({copyRow(1, 0, 96), copyRow(1, 48, 100)}),
            "the copies' strides differ");
  EXPECT_EQ(Note({copyRow(1, 0, 96), copyRow(1, 16, 96)}),
            "offset 16 is not a multiple of 48");
  // Offsets 0 and 96 are both step 0 of 48 modulo 2 copies.
  EXPECT_EQ(Note({copyRow(1, 0, 96), copyRow(1, 96, 96)}),
            "two copies fall on the same step of 48");
  EXPECT_EQ(Note({copyRow(1, 0, 100), copyRow(1, 50, 100),
                  copyRow(1, 25, 100)}),
            "their stride 100 is not 3 steps of a source stride");
  StrideRow Irregular = copyRow(1, 56, 224);
  Irregular.Site.DominantCount = 10;
  classifySite(Irregular);
  EXPECT_EQ(Note({copyRow(1, 0, 224), Irregular}),
            "a copy has no stride (irregular or too few observations)");
}

TEST(StridesTest, MergeOverProcessesConvertsTicks) {
  Profile P;
  for (uint64_t Rate : {1000000000ull, 2000000000ull}) {
    Process Pr;
    Pr.TickRate = Rate;
    Pr.Modules.push_back({});
    Pr.Modules[0].Name = "m.c";
    MemSite S;
    S.Hash = 7;
    S.AccessSize = 8;
    S.Flags = activetime::abi::MS_InLoop;
    S.Executions = 100;
    S.Observations = 10;
    S.Differences = 9;
    S.Adjacent = 9;
    S.Gcd = Rate == 1000000000ull ? 96 : 64;
    S.Dominant = 32;
    S.DominantCount = 9;
    // 9 steps of 20 ns each in either process.
    S.IterTicks = 9 * 20 * (Rate / 1000000000ull);
    S.MinStepTicks = 10 * (Rate / 1000000000ull);
    Pr.Sites.push_back(S);
    P.Processes.push_back(Pr);
  }
  std::vector<StrideRow> Rows = strideRows(P);
  ASSERT_EQ(Rows.size(), 1u);
  EXPECT_EQ(Rows[0].Site.Executions, 200u);
  EXPECT_EQ(Rows[0].Site.DominantCount, 18u);
  EXPECT_EQ(Rows[0].Site.Gcd, 32u);
  EXPECT_EQ(Rows[0].Class, StrideClass::Constant);
  ASSERT_TRUE(Rows[0].IterNs.has_value());
  EXPECT_DOUBLE_EQ(*Rows[0].IterNs, 20.0);
  EXPECT_DOUBLE_EQ(*Rows[0].MinIterNs, 10.0);
}

TEST(StridesTest, PrefetchDistance) {
  PrefetchModel M; // 100 ns, 64-byte lines, at most 64 iterations
  // Short steps inside the line: ceil(100 / 8) = 13 iterations.
  PrefetchDistance D = prefetchDistance(-4, 8, M);
  EXPECT_EQ(D.Iterations, 13u);
  EXPECT_EQ(D.Bytes, -52);
  // Every step waited for a miss: the miss is taken out, 130 - 100 = 30.
  D = prefetchDistance(320, 130, M);
  EXPECT_DOUBLE_EQ(D.WorkNs, 30);
  EXPECT_EQ(D.Iterations, 4u);
  EXPECT_EQ(D.Bytes, 1280);
  // A step longer than the latency within the line is not a miss.
  D = prefetchDistance(8, 130, M);
  EXPECT_EQ(D.Iterations, 1u);
  // Tiny steps: at least 1 ns, at most 64 iterations.
  D = prefetchDistance(64, 0, M);
  EXPECT_DOUBLE_EQ(D.WorkNs, 1);
  EXPECT_EQ(D.Iterations, 64u);
}

// Every adjacent step counts for the any-step times, whatever its
// difference; the loop's other sites' probe time is taken out of both, the
// site's own out of the mean only (the shortest is already without it).
TEST(StridesTest, AnyStepTimesOverProcessesLessTheLoopsProbes) {
  Profile P;
  for (uint64_t Rate : {1000000000ull, 2000000000ull}) {
    Process Pr;
    Pr.TickRate = Rate;
    Pr.Modules.push_back({});
    Pr.Modules[0].Name = "m.c";
    uint64_t T = Rate / 1000000000ull; // ticks per ns
    MemSite S;
    S.Hash = 7;
    S.AccessSize = 8;
    S.Flags = activetime::abi::MS_InLoop;
    S.LoopLine = 3;
    S.Executions = 1000;
    S.Observations = S.Differences = S.Adjacent = 10;
    // 10 steps of 50 ns, 5 of them the probe; the shortest 12 ns in the
    // first process, 8 in the second.
    S.AnyStepTicks = 10 * 50 * T;
    S.AnyProbeTicks = 10 * 5 * T;
    S.MinAnyStepTicks = (T == 1 ? 12 : 8) * T;
    Pr.Sites.push_back(S);
    // Another dynamic site of the loop: 3 ns of probe per step.
    S.Hash = 8;
    S.AnyStepTicks = 10 * 40 * T;
    S.AnyProbeTicks = 10 * 3 * T;
    S.MinAnyStepTicks = 30 * T;
    Pr.Sites.push_back(S);
    P.Processes.push_back(Pr);
  }
  std::vector<StrideRow> Rows = strideRows(P);
  ASSERT_EQ(Rows.size(), 2u);
  EXPECT_EQ(Rows[0].Class, StrideClass::Irregular);
  ASSERT_TRUE(Rows[0].AnyIterNs && Rows[0].MinAnyIterNs);
  EXPECT_DOUBLE_EQ(*Rows[0].AnyIterNs, 50.0 - 5 - 3);
  EXPECT_DOUBLE_EQ(*Rows[0].MinAnyIterNs, 8.0 - 3);
  EXPECT_DOUBLE_EQ(*Rows[1].AnyIterNs, 40.0 - 5 - 3);
}

// An irregular load is prefetched through its index only when it is hot and
// its steps stall; its distance covers the latency with its shortest steps.
TEST(StridesTest, IndirectChoice) {
  PrefetchModel M;
  M.LatencyNs = 200;
  StrideRow R = dynamicRow(0, 1, 1000);
  R.Class = StrideClass::Irregular;
  R.Site.Executions = 1000000;
  EXPECT_EQ(indirectChoice(R, 1e9, M).Why, "no step time measured");
  R.AnyIterNs = 60;
  R.MinAnyIterNs = 9;
  R.AddrSpan = M.CacheBytes - 1;
  EXPECT_EQ(indirectChoice(R, 1e9, M).Why,
            "its addresses stay within the cache");
  R.AddrSpan = M.CacheBytes;
  // 1e6 steps of 60 ns: 60 ms, 6% of 1 s; stalled 51 ns >= 5% of 200.
  IndirectChoice C = indirectChoice(R, 1e9, M);
  EXPECT_TRUE(C.Pays) << C.Why;
  EXPECT_DOUBLE_EQ(C.LoopNs, 6e7);
  EXPECT_DOUBLE_EQ(C.StallNs, 51);
  EXPECT_EQ(C.Distance.Iterations, 23u); // ceil(200 / 9)
  EXPECT_EQ(C.Distance.Bytes, 0);
  EXPECT_FALSE(C.WorkFromMean);
  // Nothing left of the shortest step once the loop's probes are out: the
  // mean step is the work, ceil(200 / 60).
  R.MinAnyIterNs = 0;
  C = indirectChoice(R, 1e9, M);
  EXPECT_TRUE(C.WorkFromMean);
  EXPECT_EQ(C.Distance.Iterations, 4u);
  R.MinAnyIterNs = 9;
  // Under 1% of the run.
  EXPECT_EQ(indirectChoice(R, 1e10, M).Why, "cold");
  // Steps that hardly vary (8 ns < 10 ns): nothing to hide.
  R.MinAnyIterNs = 52;
  EXPECT_EQ(indirectChoice(R, 1e9, M).Why, "its steps do not stall");
}

// The measured latency is a time per load; too small a buffer is refused.
TEST(StridesTest, MissLatencyMeasuresDependentLoads) {
  MissLatency L = measureMissLatency(1 << 20, 8000);
  EXPECT_GT(L.Ns, 0);
  EXPECT_EQ(L.Loads, 8000u);
  EXPECT_EQ(L.BufferBytes, 1u << 20);
  EXPECT_EQ(measureMissLatency(1000, 1000).Ns, 0);
}

} // namespace
