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

/// A process at \p TickRate ticks per second with one module, m.c.
Process oneModuleProcess(uint64_t TickRate) {
  Process Pr;
  Pr.TickRate = TickRate;
  Pr.Modules.push_back({});
  Pr.Modules[0].Name = "m.c";
  return Pr;
}

/// A dynamic 8-byte site in a loop of m.c, keyed \p Hash.
MemSite loopSite(uint64_t Hash) {
  MemSite S;
  S.Hash = Hash;
  S.AccessSize = 8;
  S.Flags = activetime::abi::MS_InLoop;
  return S;
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

/// The note of a group \p Rows that foldCopies leaves unfolded: every row
/// kept, each with the same note.
std::string unfoldedNote(const std::vector<StrideRow> &Rows) {
  std::vector<StrideRow> F = foldCopies(Rows);
  EXPECT_EQ(F.size(), Rows.size());
  for (const StrideRow &R : F) {
    EXPECT_EQ(R.FoldNote, F[0].FoldNote);
    EXPECT_EQ(R.Unroll, 1u);
  }
  return F[0].FoldNote;
}

TEST(StridesTest, CopiesThatDoNotFitStayUnfolded) {
  auto Note = unfoldedNote;
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

/// The copies of an unproven group (MS_CopyUnproven) of stride \p Stride
/// whose K-th copy was observed \p Offsets[K-1] bytes past copy K-1 in
/// \p Pairs iterations, \p Same of them at that offset.
std::vector<StrideRow> unprovenCopies(int64_t Stride,
                                      std::vector<int64_t> Offsets,
                                      uint64_t Pairs = 100,
                                      uint64_t Same = 100) {
  std::vector<StrideRow> Rows;
  for (size_t K = 0; K <= Offsets.size(); ++K) {
    StrideRow R = copyRow(3, 0, Stride);
    R.Site.Flags |= activetime::abi::MS_CopyUnproven;
    R.Site.Observations = 200;
    if (K) {
      R.Site.CopyPrev = uint32_t(K); // 1 + the previous copy's index
      R.Site.PrevOffset = Offsets[K - 1];
      R.Site.PrevPairs = Pairs;
      R.Site.PrevOffsetCount = Same;
    }
    Rows.push_back(R);
  }
  chainObservedOffsets(Rows);
  return Rows;
}

TEST(StridesTest, ObservedOffsetsChainFromTheFirstCopy) {
  std::vector<StrideRow> Rows = unprovenCopies(-192, {-48, -48, -48});
  EXPECT_EQ(Rows[0].ObservedOffset, 0);
  EXPECT_EQ(Rows[3].ObservedOffset, -144);
  // A copy with no offset observed breaks the chain from it on.
  Rows = unprovenCopies(224, {56, 56, 56});
  Rows[2].Site.PrevOffset = Rows[2].Site.PrevOffsetCount = 0;
  Rows[2].Site.PrevPairs = 0;
  chainObservedOffsets(Rows);
  EXPECT_EQ(Rows[1].ObservedOffset, 56);
  EXPECT_FALSE(Rows[2].ObservedOffset);
  EXPECT_FALSE(Rows[3].ObservedOffset);
}

// a[idx[i]] unrolled 4 times, idx[i] = 7 * i: each copy strides 224, each
// is 56 bytes past the one before: folded at run time into 56 x4, exactly as
// a proven group of the same figures.
TEST(StridesTest, FoldUnprovenCopiesByObservedOffsets) {
  std::vector<StrideRow> F = foldCopies(unprovenCopies(224, {56, 56, 56}));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Stride, 56);
  EXPECT_EQ(F[0].Unroll, 4u);
  EXPECT_EQ(F[0].CopyStride, 224);
  EXPECT_TRUE(F[0].RunTimeFold);
  EXPECT_TRUE(F[0].FoldNote.empty());
  EXPECT_EQ(F[0].Site.Executions, 4000u);
  std::vector<StrideRow> Proven = foldCopies(
      {copyRow(1, 0, 224), copyRow(1, 56, 224), copyRow(1, 112, 224),
       copyRow(1, 168, 224)});
  ASSERT_EQ(Proven.size(), 1u);
  EXPECT_FALSE(Proven[0].RunTimeFold);
  EXPECT_EQ(Proven[0].Stride, F[0].Stride);
  EXPECT_DOUBLE_EQ(*Proven[0].IterNs, *F[0].IterNs);
  // Nodes 48 bytes apart backwards; copies in another instruction order
  // (offsets -96, +48, -96: steps 0, 2, 1, 3 of -48); 90 % dominant is
  // enough.
  F = foldCopies(unprovenCopies(-192, {-96, 48, -96}, 100, 90));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Stride, -48);
  EXPECT_TRUE(F[0].RunTimeFold);
  // Two copies of a unit stride.
  F = foldCopies(unprovenCopies(16, {8}, kMinCopyPairs, kMinCopyPairs));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Class, StrideClass::Unit);
}

TEST(StridesTest, UnprovenCopiesThatDoNotFitStayUnfolded) {
  auto Note = unfoldedNote;
  EXPECT_EQ(Note(unprovenCopies(224, {56, 56, 56}, 100, 89)),
            "offsets between copies not constant at run time (copy 2 of 4: "
            "89% of 100 at 56, 90% needed)");
  EXPECT_EQ(Note(unprovenCopies(224, {56, 56, 56}, kMinCopyPairs - 1,
                                kMinCopyPairs - 1)),
            "copy 2 of 4 was observed in the same iteration as the copy "
            "before it only 7 times (8 needed)");
  // idx[4k + j] = 28k + 0, 7, 14, 22: constant offsets, not steps of 56.
  EXPECT_EQ(Note(unprovenCopies(224, {56, 56, 64})),
            "offset 176 is not a multiple of 56");
  // Another access at a constant distance, not a copy of this iteration.
  EXPECT_EQ(Note(unprovenCopies(8, {4096 + 4})),
            "the offset between copies 4100 is not within one copy's stride 8");
  EXPECT_EQ(Note(unprovenCopies(224, {112, 112, 112})),
            "two copies fall on the same step of 56");
  // A random permutation: no stride per copy.
  std::vector<StrideRow> Random = unprovenCopies(224, {56, 56, 56}, 100, 2);
  for (StrideRow &R : Random) {
    R.Site.DominantCount = 3;
    classifySite(R);
  }
  EXPECT_EQ(Note(Random),
            "a copy has no stride (irregular or too few observations)");
}

TEST(StridesTest, MergeOverProcessesConvertsTicks) {
  Profile P;
  for (uint64_t Rate : {1000000000ull, 2000000000ull}) {
    Process Pr = oneModuleProcess(Rate);
    MemSite S = loopSite(7);
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
    Process Pr = oneModuleProcess(Rate);
    uint64_t T = Rate / 1000000000ull; // ticks per ns
    MemSite S = loopSite(7);
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

// A site measured by its probe lead carries the lead's steps and probe
// time: its steps lack that probe as the lead's do, but the loop has no
// probe of its own for it.
TEST(StridesTest, ALedSiteAddsNoProbeToItsLoop) {
  Profile P;
  Process Pr = oneModuleProcess(1000000000);
  MemSite S = loopSite(7);
  S.LoopLine = 3;
  S.Executions = 1000;
  S.Observations = S.Differences = S.Adjacent = 10;
  // 10 steps of 50 ns, 5 of them the probe; the shortest 12 ns.
  S.AnyStepTicks = 10 * 50;
  S.AnyProbeTicks = 10 * 5;
  S.MinAnyStepTicks = 12;
  Pr.Sites.push_back(S);
  S.Hash = 8; // the lead's figures, 8 bytes below
  S.ProbeLead = 1;
  S.LeadOffset = -8;
  Pr.Sites.push_back(S);
  P.Processes.push_back(Pr);
  std::vector<StrideRow> Rows = strideRows(P);
  ASSERT_EQ(Rows.size(), 2u);
  for (const StrideRow &R : Rows) {
    ASSERT_TRUE(R.AnyIterNs && R.MinAnyIterNs);
    EXPECT_DOUBLE_EQ(*R.AnyIterNs, 50.0 - 5);
    EXPECT_DOUBLE_EQ(*R.MinAnyIterNs, 12.0);
  }
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
  EXPECT_FALSE(C.WorkUnmeasured);
  // Nothing left of the shortest step once the loop's probes are out: the
  // look-ahead constant.
  R.MinAnyIterNs = 0;
  C = indirectChoice(R, 1e9, M);
  EXPECT_TRUE(C.WorkUnmeasured);
  EXPECT_EQ(C.Distance.Iterations, kIndirectLookAhead);
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
