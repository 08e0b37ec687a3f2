//===- SamplesTest.cpp - Sample attribution tests ---------------------------===//
//
// Part of ActiveTime. Sample attribution through the real code: on-CPU
// samples charge their own frame, off-CPU samples the frame the thread left
// the CPU in (or, flagged, its prior on-CPU sample's frame); self, total
// (once per sample under recursion), per path and grand totals. Counted
// functions: a timed frame's on-CPU time divided by its code samples, with
// the time report's ratios (own or pooled) and their variance, counted
// functions as synthetic frames; frames without code samples unsplit.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Samples.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/raw_format.h"

#include "ProfileTestUtil.h"

#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;

Profile makeSampled() {
  Profile P;
  Process Pr;
  Pr.TickRate = 500000000; // 2 ns per tick
  Pr.Modules.push_back({1, 0, 0, "m.c", "/bin/app"});
  Pr.Functions = {{0, 0, 0, 0, "main", ""},
                  {0, 0, 0, 0, "A", ""},
                  {0, 0, 0, 0, "B", ""}};
  Thread T;
  Node N;
  N.Parent = raw::kNoParent; N.Func = 0; T.Nodes.push_back(N); // 0 main
  N.Parent = 0; N.Func = 1; T.Nodes.push_back(N);               // 1 main>A
  N.Parent = 0; N.Func = 2; T.Nodes.push_back(N);               // 2 main>B
  N.Parent = 1; N.Func = 1; T.Nodes.push_back(N);               // 3 main>A>A
  Pr.Threads.push_back(T);
  Pr.HasSamples = true;
  Pr.Samples.IntervalTicks = 50;
  Pr.Samples.Flags = raw::SMF_Randomized;
  Pr.Samples.Samples = {
      {100, 300, 0, 1, 0, 2},                                    // A on
      {200, 150, 0, 2, raw::SF_OffCpu, 2},                       // B blocked
      {300, 25, 0, 1, raw::SF_OffCpu | raw::SF_PriorFrame, 0},   // via prior
      {400, 5, 0, 3, 0, 3},                                      // A>A on
      {500, 20, 0, raw::kNoNode, raw::SF_OffCpu | raw::SF_Preempted, 0},
  };
  P.Processes.push_back(Pr);
  return P;
}

/// The Aggregate id of the function named \p Name.
uint32_t idOf(const Aggregate &A, const std::string &Name) {
  for (uint32_t I = 0; I < A.Functions.size(); ++I)
    if (A.Functions[I].Name == Name)
      return I;
  ADD_FAILURE() << "no function " << Name;
  return kOutsideFunc;
}

/// The path of timed frames \p Names, with a counted leaf if \p Counted.
SamplePath pathOf(const Aggregate &A, std::vector<std::string> Names,
                  bool Counted = false) {
  SamplePath P;
  for (const std::string &N : Names)
    P.push_back({idOf(A, N), false});
  P.back().Counted = Counted;
  return P;
}

TEST(Samples, OnAndOffCpuAttribution) {
  Profile P = makeSampled();
  Aggregate Agg = aggregate(P);
  SampleSummary S = summarizeSamples(P, Agg);
  EXPECT_EQ(S.Processes, 1u);
  EXPECT_DOUBLE_EQ(S.IntervalNs, 100);
  EXPECT_TRUE(S.Randomized);

  const SampleFigures &A = S.Self.at(idOf(Agg, "A"));
  EXPECT_DOUBLE_EQ(A.OnNs, 610);  // (300 + 5) ticks * 2 ns
  EXPECT_DOUBLE_EQ(A.OffNs, 50);  // the prior-frame sample
  EXPECT_EQ(A.OnSamples, 2u);
  EXPECT_EQ(A.OffSamples, 1u);
  EXPECT_EQ(A.PriorFrame, 1u);
  EXPECT_FALSE(A.Counted);
  EXPECT_EQ(A.OnVarNs2, 0); // no code samples: nothing split

  const SampleFigures &B = S.Self.at(idOf(Agg, "B"));
  EXPECT_DOUBLE_EQ(B.OnNs, 0);
  EXPECT_DOUBLE_EQ(B.OffNs, 300);
  EXPECT_EQ(B.OffSamples, 1u);
  EXPECT_EQ(B.PriorFrame, 0u);

  const SampleFigures &Out = S.Self.at(kOutsideFunc);
  EXPECT_DOUBLE_EQ(Out.OffNs, 40);
  EXPECT_EQ(Out.Preempted, 1u);
  EXPECT_DOUBLE_EQ(Out.PreemptedNs, 40);
  EXPECT_EQ(S.Self.count(idOf(Agg, "main")), 0u); // never the charged frame

  // Total: A once per sample even on main>A>A.
  const SampleFigures &TA = S.Total.at(idOf(Agg, "A"));
  EXPECT_EQ(TA.OnSamples, 2u);
  EXPECT_DOUBLE_EQ(TA.OnNs, 610);
  const SampleFigures &TM = S.Total.at(idOf(Agg, "main"));
  EXPECT_DOUBLE_EQ(TM.OnNs, 610);
  EXPECT_DOUBLE_EQ(TM.OffNs, 350);
  EXPECT_EQ(TM.samples(), 4u);
  // Outside every function: a total of its own (kOutsideFunc is ~0U).
  EXPECT_DOUBLE_EQ(S.Total.at(kOutsideFunc).OffNs, 40);

  EXPECT_DOUBLE_EQ(S.Paths.at(pathOf(Agg, {"main", "A", "A"})).OnNs, 10);
  EXPECT_EQ(S.Paths.size(), 4u);

  EXPECT_DOUBLE_EQ(S.All.OnNs, 610);
  EXPECT_DOUBLE_EQ(S.All.OffNs, 390);
  EXPECT_EQ(S.All.samples(), 5u);
  EXPECT_EQ(S.All.PriorFrame, 1u);
  // No code samples and no counted calls: nothing to split.
  EXPECT_EQ(S.Split.SplitOnNs, 0);
  EXPECT_EQ(S.Split.UnsplitFrames, 2u); // main>A and main>A>A, on CPU
  EXPECT_DOUBLE_EQ(S.Split.UnsplitOnNs, 610);
  EXPECT_EQ(S.Split.ProcessesWithoutCodeSamples, 1u);
}

TEST(Samples, PathOfNode) {
  Profile P = makeSampled();
  Aggregate A = aggregate(P);
  const Process &Pr = P.Processes[0];
  EXPECT_EQ(samplePath(Pr.Threads[0], 3, A.FunctionIds[0]),
            pathOf(A, {"main", "A", "A"}));
  EXPECT_EQ(samplePath(Pr.Threads[0], raw::kNoNode, A.FunctionIds[0]),
            SamplePath{SampleFrame()});
}

TEST(Samples, ProcessesWithoutSamplesContributeNothing) {
  Profile P = makeSampled();
  P.Processes.push_back(P.Processes[0]);
  P.Processes[1].HasSamples = false;
  SampleSummary S = summarizeSamples(P, aggregate(P));
  EXPECT_EQ(S.Processes, 1u);
  EXPECT_EQ(S.All.samples(), 5u);
}

/// A code sample already resolved (resolveCodeSamples is tested in
/// CodeSamplesTest.cpp): Count samples against Node that fell in Func.
CodeSample resolved(uint32_t Node, uint32_t Func, uint64_t Count,
                    CodeKind Kind = CodeKind::Function) {
  CodeSample S;
  S.Node = Node;
  S.Count = Count;
  S.Kind = Kind;
  S.Func = Kind == CodeKind::Function ? Func : 0;
  return S;
}

/// main -> work (timed) running tiny (never timed, 5000 counted calls) at
/// 1 tick = 1 ns, with the code samples and samples given.
Profile makeCounted(std::vector<CodeSample> Code,
                    std::vector<Sample> Samples) {
  Profile P;
  Process Pr;
  Pr.TickRate = 1000000000;
  Pr.CodeSamplePeriodNs = 100000;
  Pr.Modules.push_back({1, 0, 0, "m.c", "/bin/app"});
  Pr.Functions = {{0, 0, 0, 0, "main", ""},
                  {0, 0, 0, 0, "work", ""},
                  {0, 0, 0, 0, "tiny", ""},
                  {0, 0, 0, 0, "other", ""}};
  Thread T = testutil::makeThread(1, {{Root, 0, 1, 100000, 20000},
                                      {0, 1, 4, 80000, 80000}});
  T.Counts = {{0, false, 1}, {1, false, 4}, {2, true, 5000}};
  T.CodeSamples = std::move(Code);
  Pr.Threads.push_back(T);
  Pr.HasSamples = true;
  Pr.Samples.IntervalTicks = 1000;
  Pr.Samples.Samples = std::move(Samples);
  P.Processes.push_back(Pr);
  return P;
}

TEST(SamplesCounted, SplitByTheFramesOwnCodeSamples) {
  // work's 40 code samples: 28 in its own code, 2 outside the program
  // (charged to work, like a library call), 10 in tiny: tiny gets 1/4 of
  // work's on-CPU time (3000 + 1000 ns in 2 samples), work keeps 3/4. The
  // off-CPU sample (500 ns) stays on work; main's sample is not split
  // (main has no code sample).
  Profile P = makeCounted(
      {resolved(1, 1, 28), resolved(1, 0, 2, CodeKind::Outside),
       resolved(1, 2, 10), resolved(1, 1, 50, CodeKind::Runtime)},
      {{10, 3000, 0, 1, 0, 2},
       {20, 1000, 0, 1, 0, 2},
       {30, 500, 0, 1, raw::SF_OffCpu, 2},
       {40, 2000, 0, 0, 0, 1}});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);

  const SampleFigures &Work = S.Paths.at(pathOf(A, {"main", "work"}));
  EXPECT_DOUBLE_EQ(Work.OnNs, 3000);
  EXPECT_DOUBLE_EQ(Work.OffNs, 500);
  EXPECT_EQ(Work.OnSamples, 2u);
  EXPECT_EQ(Work.OffSamples, 1u);
  EXPECT_DOUBLE_EQ(Work.OnSampleShare, 1.5);
  EXPECT_DOUBLE_EQ(Work.OnVarNs2, shareVariance(4000, 30, 40));
  EXPECT_FALSE(Work.Counted);

  const SampleFigures &Tiny =
      S.Paths.at(pathOf(A, {"main", "work", "tiny"}, /*Counted=*/true));
  EXPECT_DOUBLE_EQ(Tiny.OnNs, 1000);
  EXPECT_DOUBLE_EQ(Tiny.OffNs, 0);
  EXPECT_EQ(Tiny.OnSamples, 2u); // work's samples it got a part of
  EXPECT_DOUBLE_EQ(Tiny.OnSampleShare, 0.5);
  EXPECT_DOUBLE_EQ(Tiny.OnVarNs2, shareVariance(4000, 10, 40));
  EXPECT_TRUE(Tiny.Counted);
  // No timed tiny frame: the path with tiny timed does not exist.
  EXPECT_EQ(S.Paths.count(pathOf(A, {"main", "work", "tiny"})), 0u);
  EXPECT_EQ(S.Paths.size(), 3u);

  // Self and total per function.
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "tiny")).OnNs, 1000);
  EXPECT_TRUE(S.Self.at(idOf(A, "tiny")).Counted);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "work")).OnNs, 3000);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "main")).OnNs, 2000);
  EXPECT_EQ(S.Self.at(idOf(A, "main")).OnVarNs2, 0);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "work")).OnNs, 4000); // whole
  EXPECT_EQ(S.Total.at(idOf(A, "work")).OnVarNs2, 0);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "main")).OnNs, 6000);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "tiny")).OnNs, 1000);
  EXPECT_TRUE(S.Total.at(idOf(A, "tiny")).Counted);
  // The split moves time between frames and creates none.
  double Sum = 0;
  for (const SamplePaths::Entry &E : S.Paths)
    Sum += E.F.OnNs;
  EXPECT_DOUBLE_EQ(Sum, S.All.OnNs);

  const SampledSplit &Sp = S.Split;
  EXPECT_DOUBLE_EQ(Sp.SplitOnNs, 4000);
  EXPECT_DOUBLE_EQ(Sp.CountedOnNs, 1000);
  // One split, one error: what moved has the error of what stayed.
  EXPECT_DOUBLE_EQ(Sp.CountedVarNs2, shareVariance(4000, 30, 40));
  EXPECT_EQ(Sp.OwnFrames, 1u);
  EXPECT_EQ(Sp.PooledFrames, 0u);
  EXPECT_EQ(Sp.UnsplitFrames, 1u);
  EXPECT_DOUBLE_EQ(Sp.UnsplitOnNs, 2000);
  EXPECT_EQ(Sp.ProcessesWithoutCodeSamples, 0u);
}

TEST(SamplesCounted, SameRatiosAsTheTimeReport) {
  // The share of work's on-CPU time tiny gets is the share of work's
  // self-active time the time report moves to it (80000 ns, 10 of 40).
  Profile P = makeCounted({resolved(1, 1, 30), resolved(1, 2, 10)},
                          {{10, 7000, 0, 1, 0, 2}});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  double SampledShare = S.Self.at(idOf(A, "tiny")).OnNs / S.All.OnNs;
  const Stats *Tiny = nullptr;
  for (const FunctionStats &F : A.Flat)
    if (A.Functions[F.Func].Name == "tiny")
      Tiny = &F.S;
  ASSERT_TRUE(Tiny);
  EXPECT_DOUBLE_EQ(SampledShare, Tiny->Sampled / 80000);
  EXPECT_DOUBLE_EQ(SampledShare, 0.25);
}

TEST(SamplesCounted, FewCodeSamplesUsePooledRatios) {
  // work also runs under other (node 2 -> 3): that frame has 4 code samples
  // (< kMinFrameSamples): 4 in tiny, so its own ratios would give tiny
  // everything; the pooled ratios of every work frame (30 + 0 own, 10 + 4
  // tiny = 14 of 44) apply instead. Node 1 keeps its own (10 of 40).
  Profile P = makeCounted({resolved(1, 1, 30), resolved(1, 2, 10),
                           resolved(3, 2, 4)},
                          {{10, 4000, 0, 1, 0, 2}, {20, 2200, 0, 3, 0, 3}});
  Thread &T = P.Processes[0].Threads[0];
  T.Nodes.push_back({0, 3, 1, 10000, 0});
  T.Nodes.push_back({2, 1, 1, 10000, 10000});
  T.Counts.push_back({3, false, 1});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  const SampleFigures &Pooled =
      S.Paths.at(pathOf(A, {"main", "other", "work", "tiny"}, true));
  EXPECT_DOUBLE_EQ(Pooled.OnNs, 2200.0 * 14 / 44);
  EXPECT_DOUBLE_EQ(Pooled.OnVarNs2, shareVariance(2200, 14, 44));
  EXPECT_DOUBLE_EQ(S.Paths.at(pathOf(A, {"main", "other", "work"})).OnNs,
                   2200.0 * 30 / 44);
  const SampleFigures &Own =
      S.Paths.at(pathOf(A, {"main", "work", "tiny"}, true));
  EXPECT_DOUBLE_EQ(Own.OnNs, 1000);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "tiny")).OnNs, 1000 + 2200.0 * 14 / 44);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "tiny")).OnVarNs2,
                   shareVariance(4000, 10, 40) + shareVariance(2200, 14, 44));
  EXPECT_EQ(S.Split.OwnFrames, 1u);
  EXPECT_EQ(S.Split.PooledFrames, 1u);
  EXPECT_DOUBLE_EQ(S.Split.CountedVarNs2, shareVariance(4000, 30, 40) +
                                              shareVariance(2200, 30, 44));
}

TEST(SamplesCounted, FramesWithoutCodeSamplesStayWhole) {
  // work has no code sample anywhere in the process (tiny's are on main's
  // frame): its on-CPU time is not split, and said so; main's frame, with
  // 8 samples of its own, gives tiny half of its time.
  Profile P = makeCounted({resolved(0, 0, 4), resolved(0, 2, 4)},
                          {{10, 4000, 0, 1, 0, 2}, {20, 600, 0, 0, 0, 1}});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  const SampleFigures &Work = S.Paths.at(pathOf(A, {"main", "work"}));
  EXPECT_DOUBLE_EQ(Work.OnNs, 4000);
  EXPECT_EQ(Work.OnVarNs2, 0);
  EXPECT_EQ(S.Paths.count(pathOf(A, {"main", "work", "tiny"}, true)), 0u);
  EXPECT_DOUBLE_EQ(S.Paths.at(pathOf(A, {"main", "tiny"}, true)).OnNs, 300);
  EXPECT_EQ(S.Split.UnsplitFrames, 1u);
  EXPECT_DOUBLE_EQ(S.Split.UnsplitOnNs, 4000);
  EXPECT_DOUBLE_EQ(S.Split.SplitOnNs, 600);
  EXPECT_DOUBLE_EQ(S.Split.CountedOnNs, 300);

  // A process without code samples at all is counted as such.
  P.Processes[0].CodeSamplePeriodNs = 0;
  for (Thread &T : P.Processes[0].Threads)
    T.CodeSamples.clear();
  SampleSummary N = summarizeSamples(P, aggregate(P));
  EXPECT_EQ(N.Split.ProcessesWithoutCodeSamples, 1u);
  EXPECT_EQ(N.Split.SplitOnNs, 0);
  EXPECT_DOUBLE_EQ(N.Split.UnsplitOnNs, 4600);
  for (const SamplePaths::Entry &E : N.Paths)
    EXPECT_FALSE(N.Paths.node(E.Node).Frame.Counted);
}

TEST(SamplesCounted, TimedCalleeCodeOutsideItsProbes) {
  // other (node 2 under work) was timed on every call: the 2 of work's 8
  // code samples in its code ran outside its probes; their share of work's
  // on-CPU time goes to work > other, a timed frame, not a counted one.
  Profile P = makeCounted({resolved(1, 1, 6), resolved(1, 3, 2)},
                          {{10, 4000, 0, 1, 0, 2}});
  Thread &T = P.Processes[0].Threads[0];
  T.Nodes.push_back({1, 3, 10, 1000, 1000});
  T.Counts.push_back({3, false, 10});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  const SampleFigures &Other =
      S.Paths.at(pathOf(A, {"main", "work", "other"}));
  EXPECT_DOUBLE_EQ(Other.OnNs, 1000);
  EXPECT_FALSE(Other.Counted);
  EXPECT_DOUBLE_EQ(S.Split.OutsideProbesOnNs, 1000);
  EXPECT_EQ(S.Split.CountedOnNs, 0);
  EXPECT_EQ(S.Split.CountedVarNs2, 0);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "other")).OnNs, 1000);
}

TEST(SamplesCounted, UncountedCodeOutsideProbesAsInTheTimeReport) {
  // other was timed on every call of the thread (10 calls, under main, not
  // under work) and never counted: the 2 of work's 8 code samples in its
  // code ran outside its probes, and no timed frame of it is above work.
  // The time report moves that share of work's self time to an "[outside
  // probes]" child of work, not to counted time; the sampled view gives
  // the same share of work's on-CPU time to an OutsideProbes frame.
  Profile P = makeCounted({resolved(1, 1, 6), resolved(1, 3, 2)},
                          {{10, 4000, 0, 1, 0, 2}});
  Thread &T = P.Processes[0].Threads[0];
  T.Nodes.push_back({0, 3, 10, 1000, 1000});
  T.Counts.push_back({3, false, 10});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  SamplePath To = pathOf(A, {"main", "work", "other"});
  To.back().OutsideProbes = true;
  const SampleFigures &Other = S.Paths.at(To);
  EXPECT_DOUBLE_EQ(Other.OnNs, 1000);
  EXPECT_FALSE(Other.Counted);
  EXPECT_EQ(S.Paths.count(pathOf(A, {"main", "work", "other"}, true)), 0u);
  EXPECT_EQ(S.Paths.count(pathOf(A, {"main", "work", "other"})), 0u);
  EXPECT_DOUBLE_EQ(S.Split.OutsideProbesOnNs, 1000);
  EXPECT_EQ(S.Split.CountedOnNs, 0);
  EXPECT_EQ(S.Split.CountedVarNs2, 0);
  EXPECT_FALSE(S.Self.at(idOf(A, "other")).Counted);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "other")).OnNs, 1000);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "other")).OnNs, 1000);

  // The time report: the same share (1/4) of work's self time (80000 ns)
  // in an [outside probes] child of work.
  unsigned Outside = 0;
  for (const TreeNode &N : A.Tree)
    if (N.OutsideProbes) {
      ++Outside;
      EXPECT_EQ(A.Functions[N.Func].Name, "other");
      EXPECT_EQ(A.Functions[A.Tree[N.Parent].Func].Name, "work");
      EXPECT_DOUBLE_EQ(N.S.SelfActive / 80000, Other.OnNs / 4000);
    }
  EXPECT_EQ(Outside, 1u);
  EXPECT_EQ(A.How.SampledNs, 0);
}

TEST(SamplesCounted, PooledRatiosOnlyForFunctionsTheFrameCanHaveRun) {
  // work's frame under main (node 1) has 8 code samples of its own, 2 in
  // the code of other (timed on every call, node 2 under it) outside its
  // probes. work's frame under other (node 3) has none: it takes work's
  // pooled ratios, but it called nothing, so other's share says nothing of
  // it and its time stays whole; no "[outside probes]" node appears under
  // it (a leaf of a large tree would get one of every function its
  // function's other frames called).
  Profile P = makeCounted({resolved(1, 1, 6), resolved(1, 3, 2)},
                          {{10, 4000, 0, 1, 0, 2}, {20, 2000, 0, 3, 0, 4}});
  Thread &T = P.Processes[0].Threads[0];
  T.Nodes.push_back({1, 3, 10, 1000, 1000});   // 2 main>work>other
  T.Nodes.push_back({2, 1, 1, 50000, 50000});  // 3 main>work>other>work
  T.Counts.push_back({3, false, 10});
  T.Counts[1].Calls = 5;
  Aggregate A = aggregate(P);
  for (const TreeNode &N : A.Tree)
    EXPECT_FALSE(N.OutsideProbes);
  SampleSummary S = summarizeSamples(P, A);
  const SampleFigures &Leaf =
      S.Paths.at(pathOf(A, {"main", "work", "other", "work"}));
  EXPECT_DOUBLE_EQ(Leaf.OnNs, 2000);
  EXPECT_EQ(S.Split.PooledFrames, 1u);
  // Node 1's own ratios still give other its code outside the probes.
  EXPECT_DOUBLE_EQ(S.Paths.at(pathOf(A, {"main", "work", "other"})).OnNs,
                   1000);
  EXPECT_DOUBLE_EQ(S.Split.OutsideProbesOnNs, 1000);
}

TEST(SamplesCounted, RecursionCountsOnceInTotals) {
  // tiny was timed on some calls (node 2: main > work > tiny) and counted
  // on the rest: work's split gives a counted tiny frame beside the timed
  // one, and tiny's total counts each sample once.
  Profile P = makeCounted({resolved(2, 2, 8), resolved(1, 1, 8),
                           resolved(1, 2, 8)},
                          {{10, 1000, 0, 2, 0, 3}, {20, 1000, 0, 1, 0, 2}});
  Thread &T = P.Processes[0].Threads[0];
  T.Nodes.push_back({1, 2, 16, 1000, 1000});
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  // Node 2 (tiny) keeps its own samples; work gives tiny half.
  EXPECT_DOUBLE_EQ(S.Paths.at(pathOf(A, {"main", "work", "tiny"})).OnNs,
                   1000);
  EXPECT_DOUBLE_EQ(
      S.Paths.at(pathOf(A, {"main", "work", "tiny"}, true)).OnNs, 500);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "tiny")).OnNs, 1500);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "tiny")).OnNs, 1500);
  EXPECT_EQ(S.Total.at(idOf(A, "tiny")).OnSamples, 2u);
  EXPECT_DOUBLE_EQ(S.Total.at(idOf(A, "work")).OnNs, 2000);
}

TEST(SamplePaths, SharedPrefixesAndPathOrder) {
  SamplePaths P;
  SampleFrame A{1, false}, B{2, false}, C{3, true};
  uint32_t NA = P.child(SamplePaths::kRoot, A);
  uint32_t NAB = P.child(NA, B);
  uint32_t NAC = P.child(NA, C);
  EXPECT_EQ(P.child(NA, B), NAB); // made once
  uint32_t NB = P.child(SamplePaths::kRoot, B);
  SampleFigures F;
  F.OnNs = 1;
  P.add(NAC, F);
  P.add(NB, F);
  P.add(NAB, F);
  P.add(NA, F);
  P.add(NAB, F);
  P.finish();
  // Path order: a path before its extensions, frames compared outermost
  // first: A, A>B, A>C[counted], B.
  std::vector<uint32_t> Order;
  for (const SamplePaths::Entry &E : P)
    Order.push_back(E.Node);
  EXPECT_EQ(Order, (std::vector<uint32_t>{NA, NAB, NAC, NB}));
  EXPECT_DOUBLE_EQ(P.at({A, B}).OnNs, 2);
  EXPECT_EQ(P.count({B, A}), 0u);
  EXPECT_EQ(P.path(NAC), (SamplePath{A, C}));
  EXPECT_EQ(P.node(NAC).Depth, 2u);
  std::vector<uint32_t> At1 = P.ancestorsAt(1);
  EXPECT_EQ(At1[NAC], NA);
  EXPECT_EQ(At1[NA], NA);
  EXPECT_EQ(At1[SamplePaths::kRoot], SamplePaths::kRoot);
}

TEST(Samples, DeepRecursionIsLinear) {
  // main > R > R > ... 200000 deep, a sample at every 1000th level: the
  // paths share one chain of nodes, R's total counts each sample once, and
  // nothing walks a path per sample (quadratic: minutes, gigabytes).
  constexpr uint32_t Depth = 200000;
  Profile P;
  Process Pr;
  Pr.TickRate = 1000000000;
  Pr.Modules.push_back({1, 0, 0, "m.c", "/bin/app"});
  Pr.Functions = {{0, 0, 0, 0, "main", ""}, {0, 0, 0, 0, "R", ""}};
  Thread T;
  Node N;
  N.Parent = raw::kNoParent;
  N.Func = 0;
  T.Nodes.push_back(N);
  for (uint32_t I = 1; I <= Depth; ++I) {
    N.Parent = I - 1;
    N.Func = 1;
    T.Nodes.push_back(N);
  }
  Pr.Threads.push_back(T);
  Pr.HasSamples = true;
  Pr.Samples.IntervalTicks = 1000;
  for (uint32_t I = 1000; I <= Depth; I += 1000)
    Pr.Samples.Samples.push_back({I, 10, 0, I, 0, 2});
  P.Processes.push_back(Pr);
  Aggregate A = aggregate(P);
  SampleSummary S = summarizeSamples(P, A);
  EXPECT_EQ(S.Paths.numNodes(), Depth + 2); // root, main, R x Depth
  EXPECT_EQ(S.Paths.size(), Depth / 1000);
  EXPECT_EQ(S.Total.at(idOf(A, "R")).OnSamples, Depth / 1000);
  EXPECT_EQ(S.Total.at(idOf(A, "main")).OnSamples, Depth / 1000);
  EXPECT_DOUBLE_EQ(S.Self.at(idOf(A, "R")).OnNs, 10.0 * (Depth / 1000));
  EXPECT_EQ(S.Paths.node(S.Paths.entries().back().Node).Depth, Depth + 1);
}

} // namespace
