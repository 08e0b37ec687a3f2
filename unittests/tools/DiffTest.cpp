//===- DiffTest.cpp - Comparing two profiles ------------------------------===//
//
// Part of ActiveTime. Runs are root processes with their descendants;
// functions match across builds by linkage name (local ones by module too)
// and paths by their frames' names; figures are per run; a delta is noise
// within the factor times the 95% half-width of the difference of the
// per-run means (Welch's t), and nothing is judged by it when a side has
// one run.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Diff.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;
constexpr uint32_t L = activetime::abi::FF_LocalLinkage;

struct Fn {
  std::string Name;
  std::string Module = "m.c";
  uint32_t Flags = 0;
};

/// A process at 1 tick = 1 ns of one thread with \p Nodes over \p Fns.
Process makeProcess(uint32_t Pid, uint32_t Ppid, std::vector<Fn> Fns,
                    std::vector<Node> Nodes, uint64_t Start = 0) {
  Process P;
  P.TickRate = 1000000000;
  P.Pid = Pid;
  P.ParentPid = Ppid;
  P.StartUnixNs = Start;
  P.Exe = "/bin/app";
  std::vector<std::string> Mods;
  for (const Fn &F : Fns) {
    uint32_t M = 0;
    while (M < Mods.size() && Mods[M] != F.Module)
      ++M;
    if (M == Mods.size()) {
      Mods.push_back(F.Module);
      P.Modules.push_back({M + 1, 0, 0, F.Module, "/bin/app"});
    }
  }
  for (const Fn &F : Fns) {
    uint32_t M = 0;
    while (Mods[M] != F.Module)
      ++M;
    P.Functions.push_back({M, 0, 1, F.Flags, F.Name, F.Module});
  }
  Thread T;
  T.Tid = Pid;
  T.EndTick = 1000000;
  T.SwitchSource = raw::SS_Perf;
  T.Nodes = std::move(Nodes);
  P.Threads.push_back(std::move(T));
  return P;
}

Profile profileOf(std::vector<Process> Ps) {
  Profile P;
  P.Processes = std::move(Ps);
  return P;
}

/// A side as `activetime diff` builds it.
struct TestSide {
  explicit TestSide(Profile Prof) : P(std::move(Prof)) {
    Runs = splitRuns(P);
    Whole = aggregate(P);
    if (Runs.size() >= 2)
      RunAggs = aggregateRuns(P, Runs);
  }
  DiffSide side() const {
    return {&Whole, RunAggs, unsigned(Runs.size()), tickStepNs(P)};
  }
  Profile P;
  std::vector<std::vector<uint32_t>> Runs;
  Aggregate Whole;
  std::vector<Aggregate> RunAggs;
};

DiffResult diff(const TestSide &B, const TestSide &N, DiffOptions O = {}) {
  return diffProfiles(B.side(), N.side(), O);
}

/// The entry of the function \p Name (of module \p Module if local).
const DiffEntry *fn(const DiffResult &R, const std::string &Name,
                    const std::string &Module = "") {
  std::string Key = Name;
  if (!Module.empty()) {
    Key.push_back('\0');
    Key += Module;
  }
  for (size_t I = 0; I < R.Functions.size(); ++I)
    if (R.Functions[I].Key == Key)
      return &R.FunctionDiffs[I];
  return nullptr;
}

/// The entry of the path of function names \p Frames from the root.
const DiffEntry *path(const DiffResult &R, std::vector<std::string> Frames) {
  for (size_t I = 0; I < R.Paths.size(); ++I) {
    size_t P = I, K = Frames.size();
    while (P != kNoPath && K > 0 &&
           R.Functions[R.Paths[P].Func].Key == Frames[K - 1]) {
      P = R.Paths[P].Parent;
      --K;
    }
    if (P == kNoPath && K == 0)
      return &R.PathDiffs[I];
  }
  return nullptr;
}

TEST(Diff, RunsAreRootsWithTheirDescendants) {
  // 11 is a child of 10 and 12 its grandchild, listed before them; 21 a
  // child of 20. 30's parent pid is 99's, but 99 started after it: pid
  // reuse, not a parent.
  Profile P = profileOf({makeProcess(12, 11, {{"main"}}, {}, 30),
                         makeProcess(10, 1, {{"main"}}, {}, 10),
                         makeProcess(20, 1, {{"main"}}, {}, 15),
                         makeProcess(11, 10, {{"main"}}, {}, 20),
                         makeProcess(21, 20, {{"main"}}, {}, 25),
                         makeProcess(30, 99, {{"main"}}, {}, 40),
                         makeProcess(99, 1, {{"main"}}, {}, 50)});
  std::vector<std::vector<uint32_t>> Runs = splitRuns(P);
  ASSERT_EQ(Runs.size(), 4u);
  EXPECT_EQ(Runs[0], (std::vector<uint32_t>{0, 1, 3})); // root 10 (index 1)
  EXPECT_EQ(Runs[1], (std::vector<uint32_t>{2, 4}));
  EXPECT_EQ(Runs[2], (std::vector<uint32_t>{5}));
  EXPECT_EQ(Runs[3], (std::vector<uint32_t>{6}));
}

TEST(Diff, RunsTakeAnyPidAFileHolds) {
  // ~0 and ~0 - 1 are a hash map's reserved keys; a file may hold them as
  // pids and parent pids alike. A process whose parent pid no process has
  // is a root.
  constexpr uint32_t Max = UINT32_MAX;
  Profile P = profileOf({makeProcess(Max, 1, {{"main"}}, {}, 10),
                         makeProcess(Max - 1, Max, {{"main"}}, {}, 20),
                         makeProcess(5, Max - 1, {{"main"}}, {}, 30),
                         makeProcess(6, Max - 2, {{"main"}}, {}, 40)});
  std::vector<std::vector<uint32_t>> Runs = splitRuns(P);
  ASSERT_EQ(Runs.size(), 2u);
  EXPECT_EQ(Runs[0], (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(Runs[1], (std::vector<uint32_t>{3}));
}

TEST(Diff, AggregateRunsLeavesTheProfileAsItWas) {
  Profile P = profileOf(
      {makeProcess(1, 0, {{"main"}}, {{Root, 0, 1, 100, 100}}),
       makeProcess(2, 0, {{"main"}}, {{Root, 0, 3, 300, 300}})});
  std::vector<Aggregate> Runs = aggregateRuns(P, splitRuns(P));
  ASSERT_EQ(Runs.size(), 2u);
  EXPECT_EQ(Runs[0].Flat[0].S.Calls, 1u);
  EXPECT_EQ(Runs[1].Flat[0].S.Calls, 3u);
  ASSERT_EQ(P.Processes.size(), 2u);
  EXPECT_EQ(P.Processes[1].Pid, 2u);
  EXPECT_EQ(P.Processes[1].Threads[0].Nodes[0].Calls, 3u);
}

TEST(Diff, FunctionsMatchByLinkageNameAndLocalsByModule) {
  // Another build: other table order, `old` renamed `renamed`, the static
  // helper of b.c slower, and a global `helper` that is not a.c's static
  // one.
  TestSide B(profileOf({makeProcess(
      1, 0,
      {{"main"}, {"helper", "a.c", L}, {"helper", "b.c", L}, {"old"}},
      {{Root, 0, 1, 1000, 400},
       {0, 1, 2, 100, 100},
       {0, 2, 3, 200, 200},
       {0, 3, 1, 300, 300}})}));
  TestSide N(profileOf({makeProcess(
      2, 0,
      {{"renamed"}, {"helper", "b.c", L}, {"main"}, {"helper", "a.c", L},
       {"helper", "c.c"}},
      {{Root, 2, 1, 1250, 400},
       {0, 3, 2, 100, 100},
       {0, 1, 3, 400, 400},
       {0, 0, 1, 300, 300},
       {0, 4, 1, 50, 50}})}));
  DiffResult R = diff(B, N);
  const DiffEntry *Hb = fn(R, "helper", "b.c");
  ASSERT_TRUE(Hb);
  EXPECT_TRUE(Hb->InBase && Hb->InNew);
  EXPECT_EQ(Hb->Self.Base, 200);
  EXPECT_EQ(Hb->Self.New, 400);
  EXPECT_EQ(Hb->Self.delta(), 200);
  EXPECT_EQ(*Hb->Self.ratio(), 2.0);
  EXPECT_EQ(Hb->Calls.delta(), 0);
  EXPECT_EQ(fn(R, "helper", "a.c")->Self.delta(), 0);
  const DiffEntry *Global = fn(R, "helper");
  ASSERT_TRUE(Global);
  EXPECT_TRUE(!Global->InBase && Global->InNew);
  EXPECT_EQ(Global->Self.BaseHas, Has::Absent);
  EXPECT_EQ(Global->Self.delta(), 50);
  EXPECT_FALSE(Global->Self.ratio());
  EXPECT_TRUE(fn(R, "old")->InBase && !fn(R, "old")->InNew);
  EXPECT_EQ(fn(R, "old")->Self.delta(), -300);
  EXPECT_EQ(fn(R, "old")->Calls.delta(), -1);
  EXPECT_TRUE(!fn(R, "renamed")->InBase && fn(R, "renamed")->InNew);
  EXPECT_EQ(fn(R, "main")->Active.delta(), 250);
  // The functions ids on each side name them (for the reports).
  for (const DiffFunction &F : R.Functions)
    if (F.Key == "old")
      EXPECT_EQ(F.New, kNoFunc);
  // One run per side: no spread, nothing judged by it.
  EXPECT_FALSE(R.SpreadKnown);
  EXPECT_EQ(Hb->Self.Spread, -1);
  EXPECT_EQ(Hb->Self.M, Mark::Unknown);
}

TEST(Diff, PathsMatchByTheirFramesNames) {
  // main -> A -> B in both; main -> C -> B only in new: B's function
  // matches, its paths are one matched and one added.
  TestSide B(profileOf({makeProcess(1, 0, {{"main"}, {"A"}, {"B"}},
                                    {{Root, 0, 1, 1000, 700},
                                     {0, 1, 1, 300, 200},
                                     {1, 2, 4, 100, 100}})}));
  TestSide N(profileOf({makeProcess(2, 0, {{"C"}, {"B"}, {"A"}, {"main"}},
                                    {{Root, 3, 1, 1000, 500},
                                     {0, 2, 1, 300, 150},
                                     {1, 1, 4, 150, 150},
                                     {0, 0, 1, 200, 100},
                                     {3, 1, 2, 100, 100}})}));
  DiffResult R = diff(B, N);
  const DiffEntry *AB = path(R, {"main", "A", "B"});
  ASSERT_TRUE(AB);
  EXPECT_TRUE(AB->InBase && AB->InNew);
  EXPECT_EQ(AB->Self.delta(), 50);
  EXPECT_EQ(AB->Active.delta(), 50);
  EXPECT_EQ(AB->Calls.delta(), 0);
  const DiffEntry *CB = path(R, {"main", "C", "B"});
  ASSERT_TRUE(CB);
  EXPECT_TRUE(!CB->InBase && CB->InNew);
  EXPECT_EQ(CB->Calls.New, 2);
  EXPECT_EQ(fn(R, "B")->Self.delta(), 150); // 100 -> 150 + 100
  EXPECT_EQ(fn(R, "B")->Calls.delta(), 2);
  EXPECT_EQ(path(R, {"main"})->Self.delta(), -200);
}

TEST(Diff, CountedTimeInAPathHasNoCallsOrInclusiveTime) {
  // New: tok's calls beyond the timed ones were counted; code samples put
  // its time under main (a [counted] node): the path main > tok has a self
  // time, but neither calls nor an inclusive time to compare.
  TestSide B(profileOf({makeProcess(
      1, 0, {{"main"}, {"tok"}},
      {{Root, 0, 1, 1000, 800}, {0, 1, 10, 200, 200}})}));
  Aggregate Whole = B.Whole;
  // Mark the base's tok node as a counted one by hand: a counted node of
  // the merged tree, as code samples make it.
  for (TreeNode &T : Whole.Tree)
    if (T.Func != UINT32_MAX && Whole.Functions[T.Func].Name == "tok")
      T.Counted = true;
  for (FunctionStats &F : Whole.Flat)
    if (Whole.Functions[F.Func].Name == "tok")
      F.S.CountedCalls = 5;
  DiffSide BS{&Whole, {}, 1};
  DiffResult R = diffProfiles(BS, B.side(), {});
  const DiffEntry *P = path(R, {"main", "tok"});
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Calls.BaseHas, Has::Unknown);
  EXPECT_FALSE(P->Calls.comparable());
  EXPECT_EQ(P->Active.BaseHas, Has::Unknown);
  EXPECT_EQ(P->Active.M, Mark::NotComparable);
  EXPECT_EQ(P->Self.delta(), 0);
  // The flat entry keeps its exact calls, but no inclusive time.
  EXPECT_EQ(fn(R, "tok")->Calls.delta(), 0);
  EXPECT_EQ(fn(R, "tok")->Active.BaseHas, Has::Unknown);
}

TEST(Diff, StudentsTQuantiles) {
  // Tables of t(0.975, df); Welch's degrees of freedom need not be whole.
  EXPECT_NEAR(tQuantile975(1), 12.7062, 1e-4);
  EXPECT_NEAR(tQuantile975(2), 4.3027, 1e-4);
  EXPECT_NEAR(tQuantile975(5), 2.5706, 1e-4);
  EXPECT_NEAR(tQuantile975(30), 2.0423, 1e-4);
  EXPECT_NEAR(tQuantile975(1e6), 1.9600, 1e-4);
  double Half = tQuantile975(1.5);
  EXPECT_GT(Half, tQuantile975(2));
  EXPECT_LT(Half, tQuantile975(1));
}

TEST(Diff, NoiseIsWelchsHalfWidthTimesTheFactor) {
  // Two runs a side, variances 2 and 2: standard error sqrt(2), Welch's
  // degrees of freedom 2 (equal sizes and variances: 2 (n - 1)).
  EXPECT_NEAR(welchSpread({1, 3}, {11, 13}), 4.3027 * std::sqrt(2.0), 1e-3);
  // Every run the same on both sides: no noise at all.
  EXPECT_EQ(welchSpread({5, 5}, {7, 7, 7}), 0);
  // One side constant: the other's standard error, its n - 1 freedoms.
  EXPECT_NEAR(welchSpread({5, 5, 5}, {1, 3}), 12.7062, 1e-3);
  EXPECT_EQ(welchSpread({1}, {10, 17}), -1);
  EXPECT_EQ(welchSpread({}, {}), -1);
  DiffOptions O;
  EXPECT_EQ(markDelta(4, 4, 4, O), Mark::Noise);
  EXPECT_EQ(markDelta(-4, 4, 4, O), Mark::Noise);
  EXPECT_EQ(markDelta(4.5, 4, 4, O), Mark::Significant);
  EXPECT_EQ(markDelta(0, 0, 0, O), Mark::Noise);
  EXPECT_EQ(markDelta(1, 0, 0, O), Mark::Significant);
  EXPECT_EQ(markDelta(100, -1, 0, O), Mark::Unknown);
  O.NoiseFactor = 2;
  EXPECT_EQ(markDelta(8, 4, 4, O), Mark::Noise);
  EXPECT_EQ(markDelta(-8.5, 4, 4, O), Mark::Significant);
  O.MinDeltaNs = 10;
  EXPECT_EQ(markDelta(9, 1, 1, O), Mark::BelowFloor);
  EXPECT_EQ(markDelta(9, -1, 1, O), Mark::BelowFloor);
  EXPECT_EQ(markDelta(10, -1, 1, O), Mark::Unknown);
}

TEST(Diff, NoiseBoundHoldsBothSidesUncertaintyAndTheTickStep) {
  // The sides' own +-95% add to the spread; one tick step at least.
  EXPECT_EQ(noiseBound(20, 3, 4, 10), 27);
  EXPECT_EQ(noiseBound(-1, 3, 4, 10), 10); // spread unknown: 7, step 10
  EXPECT_EQ(noiseBound(0, 0, 0, 10), 10);
  DiffOptions O;
  // Within the sides' uncertainty even with one run a side: noise, not
  // "unknown" -- the measurement cannot tell the figures apart.
  EXPECT_EQ(markDelta(9, -1, noiseBound(-1, 3, 4, 10), O), Mark::Noise);
  EXPECT_EQ(markDelta(11, -1, noiseBound(-1, 3, 4, 10), O), Mark::Unknown);
  // A spread of 0 (every run rounded to the same tick) does not make a
  // one-step delta a change.
  EXPECT_EQ(markDelta(-10, 0, noiseBound(0, 0, 0, 10), O), Mark::Noise);
}

/// One run whose main calls f once; f's node has \p Incl elapsed ticks of
/// which \p Overhead probe cost, on a counter that moves in 10 ns steps.
Process quantizedRun(uint32_t N, uint64_t Incl, uint64_t Overhead) {
  Process P = makeProcess(100 + N, 1, {{"main"}, {"f"}},
                          {{Root, 0, 1, 1000 + Incl, 1000},
                           {0, 1, 1, Incl, Incl, 0, 0, Overhead}});
  P.TickStep256 = 10 * 256;
  return P;
}

TEST(Diff, TickQuantizedFiguresAreNotChanges) {
  // f took 10 ns (one tick step) in both base runs, and 0 ns -- or, after
  // its probe overhead, -5 ns, printed as 0 -- in both new runs: every run
  // alike, so the spread is 0, yet one call is only timed to within its
  // readings' rounding (1.96 x sqrt(2 / 6) x 10 ns = 11.3 ns a run; 8 ns
  // for the mean of two) on each side: the 10 ns delta is noise, not
  // "faster".
  TestSide B(profileOf({quantizedRun(1, 10, 0), quantizedRun(2, 10, 0)}));
  TestSide N(profileOf({quantizedRun(3, 0, 0), quantizedRun(4, 5, 10)}));
  DiffResult R = diff(B, N);
  const DiffEntry *F = fn(R, "f");
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Self.Spread, 0);
  EXPECT_EQ(F->Self.Base, 10);
  EXPECT_EQ(F->Self.New, 0); // -5 in run 4, printed (and compared) as 0
  EXPECT_EQ(F->Self.NewRuns, (std::vector<double>{0, 0}));
  // Per run: the whole side's +-95% (4 readings) over its 2 runs.
  EXPECT_NEAR(F->Self.BaseErr, 1.96 * std::sqrt(4.0 / 6) * 10 / 2, 1e-9);
  EXPECT_EQ(F->Self.StepNs, 10);
  EXPECT_EQ(F->Self.M, Mark::Noise);
  EXPECT_EQ(F->Active.M, Mark::Noise);
  // The ratio of printed figures is never negative.
  ASSERT_TRUE(F->Self.ratio());
  EXPECT_EQ(*F->Self.ratio(), 0);
  // Reversed, the base is 0: no ratio (not -inf, not negative).
  DiffResult Rev = diff(N, B);
  EXPECT_FALSE(fn(Rev, "f")->Self.ratio());
  EXPECT_TRUE(fn(Rev, "f")->Self.comparable());
}

/// One run of a program whose main calls f; f's self time \p F ns. (Its
/// parent, pid 1, is not among the runs' pids 101...)
Process run(uint32_t N, uint64_t F, uint64_t Calls = 2) {
  return makeProcess(100 + N, 1, {{"main"}, {"f"}},
                     {{Root, 0, 1, 100 + F, 100}, {0, 1, Calls, F, F}});
}

TEST(Diff, RepeatedRunsGiveMeansAndSpread) {
  // Base runs 300, 310, 290; new 500, 520: +210 against a spread of 20.
  TestSide B(profileOf({run(1, 300), run(2, 310), run(3, 290)}));
  TestSide N(profileOf({run(4, 500), run(5, 520)}));
  DiffResult R = diff(B, N);
  EXPECT_TRUE(R.SpreadKnown);
  const DiffEntry *F = fn(R, "f");
  EXPECT_EQ(F->Self.Base, 300);
  EXPECT_EQ(F->Self.New, 510);
  EXPECT_EQ(F->Self.BaseRuns, (std::vector<double>{300, 310, 290}));
  EXPECT_EQ(F->Self.NewRuns, (std::vector<double>{500, 520}));
  // Welch: variances 100 and 200, standard error sqrt(100/3 + 200/2) =
  // 11.547, 1.684 degrees of freedom: t = 5.176.
  EXPECT_NEAR(F->Self.Spread, 59.77, 0.01);
  EXPECT_EQ(F->Self.M, Mark::Significant);
  EXPECT_EQ(F->Calls.Base, 2);
  EXPECT_EQ(F->Calls.New, 2);
  // main's self time is 100 in every run: no change, within noise.
  EXPECT_EQ(fn(R, "main")->Self.M, Mark::Noise);
  // A factor of 4 puts +210 within 4 x 59.77.
  DiffOptions Wide;
  Wide.NoiseFactor = 4;
  EXPECT_EQ(fn(diff(B, N, Wide), "f")->Self.M, Mark::Noise);
  // A run per side more or less changes the means, not the sums: new's
  // one run is not enough to judge.
  TestSide One(profileOf({run(6, 500)}));
  DiffResult R1 = diff(B, One);
  EXPECT_FALSE(R1.SpreadKnown);
  EXPECT_EQ(fn(R1, "f")->Self.delta(), 200);
  EXPECT_EQ(fn(R1, "f")->Self.M, Mark::Unknown);
}

TEST(Diff, AbsentInARunCountsAsZeroThere) {
  // g ran in one base run only: its per-run values are 40 and 0.
  Process B2 = run(2, 300);
  B2.Functions.push_back({0, 0, 1, 0, "g", "m.c"});
  B2.Threads[0].Nodes.push_back({0, 2, 1, 40, 40});
  B2.Threads[0].Nodes[0].Incl += 40;
  TestSide B(profileOf({run(1, 300), B2}));
  TestSide N(profileOf({run(3, 300), run(4, 300)}));
  DiffResult R = diff(B, N);
  const DiffEntry *G = fn(R, "g");
  EXPECT_EQ(G->Self.BaseRuns, (std::vector<double>{0, 40}));
  EXPECT_EQ(G->Self.NewRuns, (std::vector<double>{0, 0}));
  EXPECT_EQ(G->Self.Base, 20);
  // Variance 800 over 2 runs, t(1) x 20.
  EXPECT_NEAR(G->Self.Spread, 12.7062 * 20, 0.01);
  EXPECT_EQ(G->Self.M, Mark::Noise);
  EXPECT_EQ(G->Calls.Base, 0.5);
}

TEST(Diff, SortedByAbsoluteDeltaNotComparableLast) {
  std::vector<DiffEntry> E(4);
  for (DiffEntry &X : E)
    X.InBase = X.InNew = true;
  auto Set = [](DiffEntry &X, double B, double N) {
    X.Self.BaseHas = X.Self.NewHas = Has::Value;
    X.Self.Base = B;
    X.Self.New = N;
  };
  Set(E[0], 10, 12);
  Set(E[1], 10, 2);
  Set(E[2], 10, 10);
  E[3].Self.BaseHas = Has::Unknown;
  Set(E[2], 10, 8);
  std::vector<std::string> Names = {"a", "b", "c", "d"};
  EXPECT_EQ(sortByDelta(E, DiffMetric::SelfActive, Names),
            (std::vector<uint32_t>{1, 0, 2, 3}));
  E[3].InBase = E[3].InNew = false; // in neither side: not listed
  EXPECT_EQ(sortByDelta(E, DiffMetric::SelfActive, Names).size(), 3u);
}

} // namespace
