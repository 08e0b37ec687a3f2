//===- AggregateTest.cpp - Profile aggregation tests ------------------------===//
//
// Part of ActiveTime. Recursion must not double count inclusive time,
// function identity follows linkage, and the merged tree combines threads
// and processes after converting each process's ticks to nanoseconds.
// Timed or counted calls: call counts beyond the timed ones are counted
// calls, and code samples split a timed frame's self-active time between
// its own code and the counted functions it ran (exact figures by hand).
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "ProfileTestUtil.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;

/// A process at 1 tick = 1 ns with one module "m.c" holding \p Names.
Process makeProcess(std::vector<std::string> Names, uint64_t TickRate = 1e9,
                    std::string ModName = "m.c", uint32_t Flags = 0) {
  Process P;
  P.TickRate = TickRate;
  P.Exe = "/bin/app";
  P.Modules.push_back({1, 0, 0, ModName, "/bin/app"});
  for (std::string &N : Names)
    P.Functions.push_back({0, 0, 1, Flags, N, ModName});
  return P;
}

using testutil::makeThread;

const FunctionStats *find(const Aggregate &A, const std::string &Name,
                          const std::string &Module = "") {
  for (const FunctionStats &F : A.Flat)
    if (A.Functions[F.Func].Name == Name &&
        (Module.empty() || A.Functions[F.Func].Module == Module))
      return &F;
  return nullptr;
}

TEST(Aggregate, DirectRecursionCountedOnce) {
  // A -> A -> A: inclusive is the outermost call's, exclusive the sum.
  Process P = makeProcess({"A"});
  P.Threads.push_back(makeThread(1, {{Root, 0, 1, 100, 10, 100, 100},
                                     {0, 0, 1, 90, 20, 90, 90},
                                     {1, 0, 1, 70, 70, 70, 70}}));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const FunctionStats *F = find(A, "A");
  ASSERT_TRUE(F);
  EXPECT_EQ(F->S.Calls, 3u);
  EXPECT_EQ(F->S.Elapsed, 100);
  EXPECT_EQ(F->S.SelfElapsed, 100);
  EXPECT_EQ(F->S.Min, 70);
  EXPECT_EQ(F->S.Max, 100);
  EXPECT_EQ(F->Share, 1.0);
  // The tree keeps every level.
  ASSERT_EQ(A.Tree.size(), 4u);
  EXPECT_EQ(A.Tree[3].Depth, 3u);
  EXPECT_EQ(A.Tree[3].S.Elapsed, 70);
}

TEST(Aggregate, IndirectRecursionAndSiblings) {
  // main -> A -> B -> A, and main -> C -> A (a separate, non-nested A).
  Process P = makeProcess({"main", "A", "B", "C"});
  P.Threads.push_back(makeThread(1, {{Root, 0, 1, 1000, 100, 1000, 1000},
                                     {0, 1, 1, 600, 100, 600, 600},
                                     {1, 2, 1, 500, 200, 500, 500},
                                     {2, 1, 1, 300, 300, 300, 300},
                                     {0, 3, 1, 300, 200, 300, 300},
                                     {4, 1, 1, 100, 100, 100, 100}}));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_EQ(find(A, "A")->S.Elapsed, 700); // 600 + 100, not + 300
  EXPECT_EQ(find(A, "A")->S.SelfElapsed, 500);
  EXPECT_EQ(find(A, "A")->S.Calls, 3u);
  EXPECT_EQ(find(A, "B")->S.Elapsed, 500);
  EXPECT_EQ(find(A, "main")->S.Elapsed, 1000);
  EXPECT_EQ(A.TotalSelfElapsed, 1000);
  // Sorted by exclusive time.
  ASSERT_EQ(A.Flat.size(), 4u);
  EXPECT_EQ(A.Functions[A.Flat[0].Func].Name, "A");
}

TEST(Aggregate, DeepChainIsIterative) {
  // 1,000,000 levels alternating A and B; recursion here would overflow.
  constexpr uint32_t Depth = 1000000;
  Process P = makeProcess({"A", "B"});
  std::vector<Node> Nodes(Depth);
  for (uint32_t I = 0; I < Depth; ++I) {
    uint64_t Incl = Depth - I;
    Nodes[I] = {I ? I - 1 : Root, I % 2, 1, Incl, 1, Incl, Incl};
  }
  P.Threads.push_back(makeThread(1, std::move(Nodes)));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_EQ(find(A, "A")->S.Elapsed, Depth);
  EXPECT_EQ(find(A, "B")->S.Elapsed, Depth - 1);
  EXPECT_EQ(find(A, "A")->S.SelfElapsed, Depth / 2);
  EXPECT_EQ(A.Tree.size(), Depth + 1);
  EXPECT_EQ(A.Tree.back().Depth, Depth);
}

TEST(Aggregate, LocalLinkageIsPerModule) {
  // Two modules, each with a static "helper" and the same inline function.
  Process P;
  P.TickRate = 1e9;
  P.Modules.push_back({1, 0, 0, "a.c", "/bin/app"});
  P.Modules.push_back({2, 0, 0, "b.c", "/bin/app"});
  uint32_t L = activetime::abi::FF_LocalLinkage;
  P.Functions.push_back({0, 0, 1, L, "helper", "a.c"});
  P.Functions.push_back({0, 0, 2, 0, "_ZN1S6inlineEv", "s.h"});
  P.Functions.push_back({1, 0, 1, L, "helper", "b.c"});
  P.Functions.push_back({1, 0, 2, 0, "_ZN1S6inlineEv", "s.h"});
  P.Threads.push_back(makeThread(1, {{Root, 0, 1, 10, 10, 10, 10},
                                     {Root, 1, 1, 20, 20, 20, 20},
                                     {Root, 2, 1, 30, 30, 30, 30},
                                     {Root, 3, 1, 40, 40, 40, 40}}));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  ASSERT_EQ(A.Flat.size(), 3u);
  EXPECT_EQ(find(A, "_ZN1S6inlineEv")->S.Elapsed, 60);
  EXPECT_EQ(find(A, "_ZN1S6inlineEv")->S.Calls, 2u);
  EXPECT_EQ(find(A, "helper", "a.c")->S.Elapsed, 10);
  EXPECT_EQ(find(A, "helper", "b.c")->S.Elapsed, 30);
  EXPECT_TRUE(A.Functions[find(A, "helper", "b.c")->Func].Local);
  // Tree roots merge the same way: three distinct children of the root.
  EXPECT_EQ(A.Tree[0].Children.size(), 3u);

  // The same static function of the same module in another process (e.g.
  // a forked child) is the same function.
  Prof.Processes.push_back(P);
  Aggregate B = aggregate(Prof);
  EXPECT_EQ(B.Flat.size(), 3u);
  EXPECT_EQ(find(B, "helper", "a.c")->S.Elapsed, 20);
}

TEST(Aggregate, TreeMergesThreadsAndProcessesWithTickRates) {
  // Process 1 at 1 GHz ticks, process 2 at 4 GHz: both describe 1000 ns
  // of main with 400 ns in f.
  Process P1 = makeProcess({"main", "f", "g"}, 1000000000);
  P1.Threads.push_back(makeThread(1, {{Root, 0, 1, 1000, 600, 1000, 1000},
                                      {0, 1, 2, 400, 400, 150, 250}}));
  P1.Threads.push_back(makeThread(2, {{Root, 1, 1, 100, 100, 100, 100}}));
  // Different function table order in the second process: identity is by
  // name, not by id.
  Process P2 = makeProcess({"g", "f", "main"}, 4000000000);
  P2.Threads.push_back(makeThread(3, {{Root, 2, 1, 4000, 2400, 4000, 4000},
                                      {0, 1, 1, 1600, 1200, 1600, 1600},
                                      {1, 0, 1, 400, 400, 400, 400}}));
  Profile Prof;
  Prof.Processes = {P1, P2};
  Aggregate A = aggregate(Prof);

  // Root children: main (merged from both processes) and f (thread 2).
  ASSERT_EQ(A.Tree[0].Children.size(), 2u);
  const TreeNode &Main = A.Tree[A.Tree[0].Children[0]];
  EXPECT_EQ(A.Functions[Main.Func].Name, "main");
  EXPECT_EQ(Main.S.Elapsed, 2000);
  EXPECT_EQ(Main.S.SelfElapsed, 1200);
  EXPECT_EQ(Main.S.Calls, 2u);
  ASSERT_EQ(Main.Children.size(), 1u);
  const TreeNode &F = A.Tree[Main.Children[0]];
  EXPECT_EQ(A.Functions[F.Func].Name, "f");
  EXPECT_EQ(F.S.Elapsed, 800);
  EXPECT_EQ(F.S.Calls, 3u);
  EXPECT_EQ(F.S.Min, 150);
  EXPECT_EQ(F.S.Max, 400);
  ASSERT_EQ(F.Children.size(), 1u);
  EXPECT_EQ(A.Tree[F.Children[0]].S.Elapsed, 100);
  const TreeNode &F2 = A.Tree[A.Tree[0].Children[1]];
  EXPECT_EQ(A.Functions[F2.Func].Name, "f");
  EXPECT_EQ(F2.S.Elapsed, 100);
  EXPECT_EQ(A.Tree[0].S.Elapsed, 2100);

  // Flat: f over all three threads.
  EXPECT_EQ(find(A, "f")->S.Elapsed, 900);
  EXPECT_EQ(find(A, "f")->S.SelfElapsed, 800);
  EXPECT_EQ(find(A, "f")->S.Calls, 4u);
  EXPECT_EQ(A.TotalSelfElapsed, 2100);

  // Per-thread summaries, in process then thread order.
  ASSERT_EQ(A.Threads.size(), 3u);
  EXPECT_EQ(A.Threads[0].Tid, 1u);
  EXPECT_EQ(A.Threads[2].Process, 1u);
  EXPECT_EQ(A.Threads[2].WallNs, 250000); // 1e6 ticks at 4 GHz
  EXPECT_EQ(A.Threads[2].TotalSelfElapsed, 1000);
  ASSERT_EQ(A.Threads[2].Functions.size(), 3u);
  EXPECT_EQ(A.Functions[A.Threads[2].Functions[0].Func].Name, "main");
  EXPECT_DOUBLE_EQ(A.Threads[2].Functions[0].Share, 0.6);
}

TEST(Aggregate, TreePerThreadKeepsThreadsAndCallSitesApart) {
  // Thread 1 calls f from two call instructions (return addresses 0x10 and
  // 0x20), thread 2 from one: the merged tree has one main -> f, the
  // per-thread trees have thread 1's two f nodes and thread 2's own.
  Process P = makeProcess({"main", "f"});
  P.Threads.push_back(
      makeThread(1, {{Root, 0, 1, 1000, 500, 1000, 1000},
                     {0, 1, 2, 300, 300, 100, 200, 0, 0, 0, 0, 0x10},
                     {0, 1, 1, 200, 200, 200, 200, 0, 0, 0, 0, 0x20}}));
  P.Threads.push_back(
      makeThread(2, {{Root, 0, 1, 100, 60, 100, 100},
                     {0, 1, 1, 40, 40, 40, 40, 0, 0, 0, 0, 0x10}}));
  Profile Prof;
  Prof.Processes = {P};
  Aggregate Merged = aggregate(Prof);
  AggregateOptions O;
  O.TreePerThread = true;
  Aggregate A = aggregate(Prof, O);
  EXPECT_TRUE(Merged.ThreadTreeBegin.empty());
  ASSERT_EQ(Merged.Tree.size(), 3u); // root, main, f
  ASSERT_EQ(A.ThreadTreeBegin, (std::vector<uint32_t>{1, 4}));
  ASSERT_EQ(A.Tree.size(), 6u);
  EXPECT_EQ(A.Tree[0].Children, (std::vector<uint32_t>{1, 4}));
  // Thread 1: main, f from 0x10 (300 ns) before f from 0x20 (200 ns).
  EXPECT_EQ(A.Tree[1].S.SelfElapsed, 500);
  ASSERT_EQ(A.Tree[1].Children, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(A.Tree[2].S.Calls, 2u);
  EXPECT_EQ(A.Tree[2].S.Elapsed, 300);
  EXPECT_EQ(A.Tree[3].S.Calls, 1u);
  EXPECT_EQ(A.Tree[3].S.Elapsed, 200);
  // Thread 2's own tree.
  EXPECT_EQ(A.Tree[4].S.Elapsed, 100);
  EXPECT_EQ(A.Tree[5].S.Elapsed, 40);
  EXPECT_EQ(A.Tree[5].Parent, 4u);
  // The flat figures are the same either way.
  ASSERT_EQ(A.Flat.size(), Merged.Flat.size());
  for (size_t I = 0; I < A.Flat.size(); ++I) {
    EXPECT_EQ(A.Flat[I].S.Calls, Merged.Flat[I].S.Calls);
    EXPECT_EQ(A.Flat[I].S.SelfActive, Merged.Flat[I].S.SelfActive);
    EXPECT_EQ(A.Flat[I].S.Active, Merged.Flat[I].S.Active);
  }
}

TEST(Aggregate, TreeIndexFollowsEveryNodeIntoTheTree) {
  // Thread 1: main -> f, main -> g (no calls) -> f; thread 2: main -> f.
  // g and the f under it describe no time and are in no tree node; both
  // threads' main -> f are one node of the merged tree, and each thread's
  // per-thread tree has its own.
  Process P = makeProcess({"main", "f", "g"});
  P.Threads.push_back(makeThread(1, {{Root, 0, 1, 1000, 500, 1000, 1000},
                                     {0, 1, 1, 300, 300, 300, 300},
                                     {0, 2, 0, 0, 0, 0, 0},
                                     {2, 1, 1, 200, 200, 200, 200}}));
  P.Threads.push_back(makeThread(2, {{Root, 0, 1, 100, 60, 100, 100},
                                     {0, 1, 1, 40, 40, 40, 40}}));
  Profile Prof;
  Prof.Processes = {P};
  Aggregate A = aggregate(Prof);
  ASSERT_EQ(A.TreeIndex.size(), 1u);
  ASSERT_EQ(A.TreeIndex[0].size(), 2u);
  EXPECT_EQ(A.TreeIndex[0][0],
            (std::vector<uint32_t>{1, 2, kNotInTree, kNotInTree}));
  EXPECT_EQ(A.TreeIndex[0][1], (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(A.Tree[2].S.Calls, 2u);
  AggregateOptions O;
  O.TreePerThread = true;
  Aggregate T = aggregate(Prof, O);
  EXPECT_EQ(T.TreeIndex[0][0],
            (std::vector<uint32_t>{1, 2, kNotInTree, kNotInTree}));
  EXPECT_EQ(T.TreeIndex[0][1], (std::vector<uint32_t>{3, 4}));
}

TEST(Aggregate, ThreadSummariesNameTheRawFlags) {
  Process P = makeProcess({"main"});
  P.Threads.push_back(makeThread(1, {{Root, 0, 1, 100, 100, 100, 100}}));
  P.Threads.back().Flags = raw::TF_Running | raw::TF_NotSampled;
  P.Threads.back().SwitchSource = raw::SS_CpuClock;
  P.Threads.push_back(makeThread(2, {{Root, 0, 1, 100, 100, 100, 100}}));
  P.Threads.back().Flags = raw::TF_Latency | raw::TF_SampledCallsApart;
  P.Threads.back().SwitchSource = raw::SS_Perf;
  P.Threads.push_back(makeThread(3, {{Root, 0, 1, 100, 100, 100, 100}}));
  Profile Prof;
  Prof.Processes = {P};
  Aggregate A = aggregate(Prof);
  ASSERT_EQ(A.Threads.size(), 3u);
  const ThreadFlags &F1 = A.Threads[0].Flags, &F2 = A.Threads[1].Flags;
  EXPECT_TRUE(F1.Running && F1.NotSampled);
  EXPECT_FALSE(F1.Latency || F1.SampledCallsApart);
  EXPECT_TRUE(F2.Latency && F2.SampledCallsApart);
  EXPECT_FALSE(F2.Running || F2.NotSampled);
  EXPECT_EQ(A.Threads[0].SwitchSource, SwitchSource::CpuClock);
  EXPECT_EQ(A.Threads[1].SwitchSource, SwitchSource::Perf);
  EXPECT_EQ(A.Threads[2].SwitchSource, SwitchSource::None);
}

TEST(Aggregate, ActiveSelfActiveAndRecursion) {
  // main(1000 elapsed, 10 overhead, 200 off-CPU) -> A(600, 20, 100)
  //   -> A(300, 50, 0): active 790 / 480 / 250; self-active 310, 230, 250.
  // The inner A's overhead exceeds nothing here, but a tiny frame may have
  // overhead > elapsed: B(5, 8, 0) is -3 active, kept signed.
  Process P = makeProcess({"main", "A", "B"});
  P.Threads.push_back(makeThread(
      1, {{Root, 0, 1, 1000, 100, 790, 790, 10, 200, 1, 2},
          {0, 1, 1, 600, 300, 480, 480, 20, 100, 0, 2},
          {1, 1, 1, 300, 300, 250, 250, 50, 0, 0, 0},
          {0, 2, 1, 5, 5, 0, 0, 8, 0, 0, 0}}));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const FunctionStats *Main = find(A, "main"), *FA = find(A, "A"),
                      *FB = find(A, "B");
  EXPECT_EQ(Main->S.Active, 790);
  EXPECT_EQ(Main->S.SelfActive, 790 - 480 - (-3));
  EXPECT_EQ(Main->S.Voluntary, 1u);
  EXPECT_EQ(Main->S.Involuntary, 2u);
  // Inclusive figures of A from the outermost node only.
  EXPECT_EQ(FA->S.Elapsed, 600);
  EXPECT_EQ(FA->S.Active, 480);
  EXPECT_EQ(FA->S.Overhead, 20);
  EXPECT_EQ(FA->S.OffCpu, 100);
  EXPECT_EQ(FA->S.Involuntary, 2u);
  EXPECT_EQ(FA->S.SelfActive, 230 + 250);
  EXPECT_EQ(FA->S.SelfElapsed, 600);
  EXPECT_EQ(FA->S.Min, 250);
  EXPECT_EQ(FA->S.Max, 480);
  EXPECT_EQ(FB->S.Active, -3);
  EXPECT_EQ(A.TotalSelfActive, 790 + 0.0 - 0); // sum of self-active = root active
  // Default order: self-active descending.
  EXPECT_EQ(A.Functions[A.Flat[0].Func].Name, "A");
  std::vector<FunctionStats> V = A.Flat;
  sortFunctions(V, A.Functions, SortKey::OffCpu);
  EXPECT_EQ(A.Functions[V[0].Func].Name, "main");
  sortFunctions(V, A.Functions, SortKey::Name);
  EXPECT_EQ(A.Functions[V[0].Func].Name, "A");
  EXPECT_EQ(A.Functions[V[2].Func].Name, "main");
  // Tree: the recursion keeps both levels with their own figures.
  const TreeNode &TA = A.Tree[A.Tree[A.Tree[0].Children[0]].Children[0]];
  EXPECT_EQ(TA.S.Active, 480);
  EXPECT_EQ(TA.S.SelfActive, 230);
}

TEST(Aggregate, SelfOverheadIsOverheadMinusTheCallees) {
  // main(overhead 100) -> A(30) -> A(10); main -> B(8). Self overhead: main
  // 100 - 30 - 8 = 62, outer A 30 - 10 = 20, inner A 10 (flat A: 30), B 8.
  // C(5) -> D(9): children's overhead above the node's is clamped to 0.
  Process P = makeProcess({"main", "A", "B", "C", "D"});
  P.Threads.push_back(makeThread(
      1, {{Root, 0, 1, 1000, 400, 800, 800, 100, 0, 0, 0},
          {0, 1, 1, 500, 300, 470, 470, 30, 0, 0, 0},
          {1, 1, 1, 200, 200, 190, 190, 10, 0, 0, 0},
          {0, 2, 1, 100, 100, 92, 92, 8, 0, 0, 0},
          {Root, 3, 1, 100, 50, 95, 95, 5, 0, 0, 0},
          {4, 4, 1, 50, 50, 41, 41, 9, 0, 0, 0}}));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_EQ(find(A, "main")->S.SelfOverhead, 62);
  EXPECT_EQ(find(A, "A")->S.SelfOverhead, 20 + 10);
  EXPECT_EQ(find(A, "A")->S.Overhead, 30); // inclusive: outermost only
  EXPECT_EQ(find(A, "B")->S.SelfOverhead, 8);
  EXPECT_EQ(find(A, "C")->S.SelfOverhead, 0);
  EXPECT_EQ(find(A, "D")->S.SelfOverhead, 9);
  const TreeNode &Outer = A.Tree[A.Tree[A.Tree[0].Children[0]].Children[0]];
  EXPECT_EQ(A.Functions[Outer.Func].Name, "A");
  EXPECT_EQ(Outer.S.SelfOverhead, 20);
  EXPECT_EQ(A.Tree[Outer.Children[0]].S.SelfOverhead, 10);
}

/// A code sample already resolved (resolveCodeSamples is tested in
/// CodeSamplesTest.cpp): Count samples against Node that fell in Func.
CodeSample resolved(uint32_t Node, uint32_t Func, uint64_t Count,
                    uint32_t Flags = 0, CodeKind Kind = CodeKind::Function) {
  CodeSample S;
  S.Node = Node;
  S.Flags = Flags;
  S.Addr = 0x1000 * (Func + 1) + 8;
  S.Count = Count;
  S.Kind = Kind;
  S.Func = Kind == CodeKind::Function ? Func : 0;
  return S;
}

const TreeNode *treeChild(const Aggregate &A, const TreeNode &Parent,
                          const std::string &Name, bool Counted) {
  for (uint32_t C : Parent.Children)
    if (A.Functions[A.Tree[C].Func].Name == Name &&
        A.Tree[C].Counted == Counted)
      return &A.Tree[C];
  return nullptr;
}

// The variance (ns^2) the split gives a part P of a self time Sa split by
// N samples (K = P * N of them): with the rule-of-succession share
// Q = (K + 1) / (N + 2), Sa^2 * Q * (1 - Q) / (N + 2).
double splitVar(double Sa, double P, double N) {
  double Q = (P * N + 1) / (N + 2);
  return Sa * Sa * Q * (1 - Q) / (N + 2);
}

TEST(AggregateCounted, SplitOwnAndCountedCallees) {
  // main (self 61.6 us) -> P (4 timed calls, elapsed 38.4 us) -> X (16
  // timed calls, 1.6 us), Y (8 timed calls, 0.8 us). Then the thread only
  // counted X (1016 calls in all) and Y (208). P's self-active time, 38.4 -
  // 1.6 - 0.8 = 36 us, is split by its 64 samples (>= 8: its own ratios):
  // 28 in P's code + 4 outside the program (charged to P, like a library
  // call) = 1/2, 16 in X = 1/4, 16 in Y = 1/4 (4 of them on counting
  // instructions): P keeps 18 us, X and Y get 9 us each.
  Process P = makeProcess({"main", "P", "X", "Y"});
  P.Overhead.Enter256 = 256;
  P.Overhead.Exit256 = 256;
  P.Overhead.Measured = 1;
  P.Overhead.Pair256 = 30 * 256;
  P.Overhead.MeasuredEnter256 = 14 * 256;
  P.Overhead.MeasuredExit256 = 13 * 256;
  Thread T = makeThread(1, {{Root, 0, 1, 100000, 61600, 100000, 100000},
                            {0, 1, 4, 38400, 36000, 9600, 9600},
                            {1, 2, 16, 1600, 1600, 100, 100},
                            {1, 3, 8, 800, 800, 100, 100}});
  T.Counts = {{0, false, 1}, {1, false, 4}, {2, true, 1016}, {3, true, 208}};
  T.CodeSamples = {resolved(1, 1, 28), resolved(1, 0, 4, 0, CodeKind::Outside),
                   resolved(1, 2, 16), resolved(1, 3, 12),
                   resolved(1, 3, 4, raw::CSR_Counting)};
  T.LostCodeSamples = 3;
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);

  const FunctionStats *Main = find(A, "main"), *FP = find(A, "P"),
                      *FX = find(A, "X"), *FY = find(A, "Y");
  ASSERT_TRUE(Main && FP && FX && FY);
  // P: timed, keeps half its self-active time, every per-call figure.
  EXPECT_TRUE(FP->S.allTimed());
  EXPECT_EQ(FP->S.Calls, 4u);
  EXPECT_EQ(FP->S.SelfActive, 18000);
  EXPECT_EQ(FP->S.Active, 38400);
  EXPECT_EQ(FP->S.SelfElapsed, 36000);
  EXPECT_EQ(FP->S.Sampled, 0);
  EXPECT_EQ(FP->S.Samples, 0u); // samples in its own code are not "moved"
  EXPECT_DOUBLE_EQ(FP->S.SelfVar, splitVar(36000, 0.5, 64));
  EXPECT_EQ(FP->S.SelfProbePairs, 4u + 16 + 8);
  // X and Y: counted calls = all calls minus the timed ones of their
  // nodes; self-active = their timed nodes' plus the sampled share.
  EXPECT_FALSE(FX->S.allTimed());
  EXPECT_EQ(FX->S.Calls, 1016u);
  EXPECT_EQ(FX->S.CountedCalls, 1000u);
  EXPECT_EQ(FX->S.SelfActive, 1600 + 9000);
  EXPECT_EQ(FX->S.Sampled, 9000);
  EXPECT_EQ(FX->S.Samples, 16u);
  EXPECT_DOUBLE_EQ(FX->S.SelfVar, splitVar(36000, 0.25, 64));
  EXPECT_EQ(FX->S.SelfProbePairs, 16u);
  EXPECT_EQ(FX->S.Elapsed, 1600); // the timed calls only
  EXPECT_EQ(FY->S.Calls, 208u);
  EXPECT_EQ(FY->S.CountedCalls, 200u);
  EXPECT_EQ(FY->S.SelfActive, 800 + 9000);
  EXPECT_EQ(FY->S.Samples, 16u);
  EXPECT_DOUBLE_EQ(FY->S.SelfVar, splitVar(36000, 0.25, 64));
  // main: no code sample, nothing split; counts equal to its node's calls.
  EXPECT_TRUE(Main->S.allTimed());
  EXPECT_EQ(Main->S.Calls, 1u);
  EXPECT_EQ(Main->S.SelfActive, 61600);
  EXPECT_EQ(Main->S.SelfVar, 0);
  EXPECT_EQ(Main->S.SelfProbePairs, 1u + 4);
  // Nothing is lost or created: the self-active times still add up to
  // main's active time.
  EXPECT_EQ(A.TotalSelfActive, 100000);
  EXPECT_DOUBLE_EQ(FP->Share, 0.18);
  // The per-thread summary says the same.
  ASSERT_EQ(A.Threads.size(), 1u);
  ASSERT_EQ(A.Threads[0].Functions.size(), 4u);
  for (const FunctionStats &F : A.Threads[0].Functions)
    if (A.Functions[F.Func].Name == "X") {
      EXPECT_EQ(F.S.CountedCalls, 1000u);
      EXPECT_EQ(F.S.SelfActive, 10600);
    }

  // Tree: under P, X and Y's timed nodes and their [counted] children with
  // the sampled time only (a leaf: active = self-active = sampled).
  const TreeNode &TMain = A.Tree[A.Tree[0].Children[0]];
  ASSERT_EQ(TMain.Children.size(), 1u);
  const TreeNode &TP = A.Tree[TMain.Children[0]];
  EXPECT_EQ(TP.S.SelfActive, 18000);
  EXPECT_DOUBLE_EQ(TP.S.SelfVar, splitVar(36000, 0.5, 64));
  ASSERT_EQ(TP.Children.size(), 4u);
  const TreeNode *CX = treeChild(A, TP, "X", true);
  const TreeNode *TX = treeChild(A, TP, "X", false);
  ASSERT_TRUE(CX && TX && treeChild(A, TP, "Y", true));
  EXPECT_EQ(CX->S.SelfActive, 9000);
  EXPECT_EQ(CX->S.Active, 9000);
  EXPECT_EQ(CX->S.Sampled, 9000);
  EXPECT_EQ(CX->S.Calls, 0u);
  EXPECT_EQ(CX->S.Elapsed, 0);
  EXPECT_DOUBLE_EQ(CX->S.SelfVar, splitVar(36000, 0.25, 64));
  EXPECT_TRUE(CX->Children.empty());
  EXPECT_EQ(TX->S.Calls, 16u);
  EXPECT_EQ(TX->S.SelfActive, 1600);
  // Children by active time: the counted ones (9 us) first, then X, Y.
  EXPECT_TRUE(A.Tree[TP.Children[0]].Counted);
  EXPECT_EQ(A.Functions[A.Tree[TP.Children[0]].Func].Name, "X");
  EXPECT_TRUE(A.Tree[TP.Children[1]].Counted);
  EXPECT_EQ(&A.Tree[TP.Children[2]], TX);

  // Provenance.
  const Provenance &H = A.How;
  EXPECT_EQ(H.TimedCalls, 1u + 4 + 16 + 8);
  EXPECT_EQ(H.CountedCalls, 1200u);
  EXPECT_EQ(H.CodeSamples, 64u);
  EXPECT_EQ(H.RuntimeSamples, 0u);
  EXPECT_EQ(H.LostCodeSamples, 3u);
  EXPECT_EQ(H.SampledNs, 18000);
  EXPECT_EQ(H.CountingBoundNs, 36000.0 * 4 / 64);
  // The frames whose function had no sample at all: main, X's and Y's.
  EXPECT_EQ(H.UnsampledSelfNs, 61600 + 1600 + 800);
  // Residual per timed call: outside parts 1 + 1, |measured 27 - pair 30|.
  EXPECT_EQ(H.ProbeResidualNs, 5);
  EXPECT_EQ(H.TimedResidualNs, 5.0 * 29);
  // The error of everything moved out of P: the same as the error of what
  // P kept (one split, one error), not the sum of both.
  EXPECT_DOUBLE_EQ(H.SampledSigmaNs, std::sqrt(splitVar(36000, 0.5, 64)));
}

TEST(AggregateCounted, CountsAcrossThreads) {
  // X timed 16 times and counted to 1016 on thread 1; on thread 2 all its
  // 4 calls were timed (the count equals the node's calls). A count below
  // the nodes' calls (not written by the runtime) changes nothing.
  Process P = makeProcess({"main", "X", "Z"});
  Thread T1 = makeThread(1, {{Root, 0, 1, 1000, 900, 1000, 1000},
                             {0, 1, 16, 100, 100, 5, 10}});
  T1.Counts = {{0, false, 1}, {1, true, 1016}};
  Thread T2 = makeThread(2, {{Root, 0, 1, 1000, 700, 1000, 1000},
                             {0, 1, 4, 200, 200, 50, 50},
                             {0, 2, 10, 100, 100, 10, 10}});
  T2.Counts = {{0, false, 1}, {1, false, 4}, {2, false, 3}};
  P.Threads = {T1, T2};
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_EQ(find(A, "X")->S.Calls, 1020u);
  EXPECT_EQ(find(A, "X")->S.CountedCalls, 1000u);
  EXPECT_FALSE(find(A, "X")->S.allTimed());
  EXPECT_EQ(find(A, "Z")->S.Calls, 10u);
  EXPECT_TRUE(find(A, "Z")->S.allTimed());
  EXPECT_EQ(find(A, "main")->S.Calls, 2u);
  EXPECT_EQ(A.How.CountedCalls, 1000u);
  EXPECT_EQ(A.How.TimedCalls, 1u + 16 + 1 + 4 + 10);
  // Per thread: thread 1's X counted, thread 2's timed.
  ASSERT_EQ(A.Threads.size(), 2u);
  for (const FunctionStats &F : A.Threads[1].Functions)
    EXPECT_EQ(F.S.CountedCalls, 0u) << A.Functions[F.Func].Name;
  // No code samples: nothing moved, no variance, no [counted] tree child.
  EXPECT_EQ(A.How.SampledNs, 0);
  EXPECT_EQ(A.How.CodeSamples, 0u);
  for (const TreeNode &N : A.Tree)
    EXPECT_FALSE(N.Counted);
}

TEST(AggregateCounted, FewSamplesUsePooledRatios) {
  // P runs in two contexts of thread 1: under main with 8 samples (its own
  // ratios: 6 own, 2 in X = 1/4) and under Q with 4 (< 8: P's pooled
  // ratios over the process, own 6 + 0, X 2 + 4 = 1/2, not its own 0:4).
  // Thread 2's P frame has no sample at all: pooled too.
  Process P = makeProcess({"main", "P", "X", "Q"});
  Thread T1 = makeThread(1, {{Root, 0, 1, 20000, 7600, 20000, 20000},
                             {0, 1, 1, 8000, 8000, 8000, 8000},
                             {0, 3, 1, 4400, 0, 4400, 4400},
                             {2, 1, 1, 4400, 4400, 4400, 4400}});
  T1.Counts = {{0, false, 1}, {1, false, 2}, {2, true, 50}, {3, false, 1}};
  T1.CodeSamples = {resolved(1, 1, 6), resolved(1, 2, 2), resolved(3, 2, 4)};
  Thread T2 = makeThread(2, {{Root, 0, 1, 2000, 1000, 2000, 2000},
                             {0, 1, 1, 1000, 1000, 1000, 1000}});
  T2.Counts = {{0, false, 1}, {1, false, 1}, {2, true, 10}};
  P.Threads = {T1, T2};
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const FunctionStats *FP = find(A, "P"), *FX = find(A, "X");
  ASSERT_TRUE(FP && FX);
  // Moved to X: 8000/4 (own ratios) + 4400/2 + 1000/2 (pooled).
  EXPECT_EQ(FX->S.Sampled, 2000 + 2200 + 500);
  EXPECT_EQ(FX->S.SelfActive, 4700);
  EXPECT_EQ(FX->S.Calls, 60u);
  EXPECT_EQ(FX->S.CountedCalls, 60u); // never timed: no node
  EXPECT_EQ(FX->S.Samples, 6u);
  EXPECT_EQ(FP->S.SelfActive, 6000 + 2200 + 500);
  // The variance of a pooled split uses the pooled sample count (12).
  double VarMoved = splitVar(8000, 0.25, 8) + splitVar(4400, 0.5, 12) +
                    splitVar(1000, 0.5, 12);
  EXPECT_DOUBLE_EQ(FX->S.SelfVar, VarMoved);
  EXPECT_DOUBLE_EQ(FP->S.SelfVar, VarMoved); // kept = 1 - moved here
  // In the tree, each P context has its own [counted] X child.
  unsigned CountedX = 0;
  double Sum = 0;
  for (const TreeNode &N : A.Tree)
    if (N.Counted) {
      EXPECT_EQ(A.Functions[N.Func].Name, "X");
      EXPECT_EQ(A.Functions[A.Tree[N.Parent].Func].Name, "P");
      ++CountedX;
      Sum += N.S.SelfActive;
    }
  EXPECT_EQ(CountedX, 2u); // thread 2's main -> P merges with thread 1's
  EXPECT_EQ(Sum, 4700);
  EXPECT_EQ(A.How.CodeSamples, 12u);
  EXPECT_EQ(A.How.UnsampledSelfNs, 7600 + 1000); // main's and main's
}

TEST(AggregateCounted, TimedCalleeCodeOutsideItsProbes) {
  // P (self 3000) -> X, whose 10 calls were all timed (count 10 = its
  // node's calls). 2 of P's 8 samples fell in X's code: X ran it outside
  // its probes (prologue, epilogue), so 3000/4 = 750 moves to X's timed
  // node, not to a [counted] child, and nothing is "counted".
  Process P = makeProcess({"P", "X"});
  Thread T = makeThread(1, {{Root, 0, 1, 4000, 3000, 4000, 4000},
                            {0, 1, 10, 1000, 1000, 100, 100}});
  T.Counts = {{0, false, 1}, {1, false, 10}};
  T.CodeSamples = {resolved(0, 0, 6), resolved(0, 1, 2)};
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_EQ(find(A, "P")->S.SelfActive, 2250);
  EXPECT_EQ(find(A, "X")->S.SelfActive, 1750);
  EXPECT_EQ(find(A, "X")->S.Active, 1750);
  EXPECT_EQ(find(A, "X")->S.Sampled, 0);
  EXPECT_DOUBLE_EQ(find(A, "X")->S.SelfVar, splitVar(3000, 0.25, 8));
  EXPECT_DOUBLE_EQ(find(A, "P")->S.SelfVar, splitVar(3000, 0.75, 8));
  EXPECT_EQ(A.How.OutsideProbesNs, 750);
  EXPECT_EQ(A.How.SampledNs, 0);
  EXPECT_EQ(A.How.SampledSigmaNs, 0);
  for (const TreeNode &N : A.Tree)
    EXPECT_FALSE(N.Counted);
  const TreeNode &TP = A.Tree[A.Tree[0].Children[0]];
  ASSERT_EQ(TP.Children.size(), 1u);
  EXPECT_EQ(A.Tree[TP.Children[0]].S.SelfActive, 1750);

  // With counted calls of X (50 > 10 timed), the same samples are X's
  // counted calls: a [counted] child gets the 750.
  Profile Counted = Prof;
  Counted.Processes[0].Threads[0].Counts = {{0, false, 1}, {1, true, 50}};
  Aggregate B = aggregate(Counted);
  EXPECT_EQ(B.How.OutsideProbesNs, 0);
  EXPECT_EQ(B.How.SampledNs, 750);
  EXPECT_EQ(find(B, "X")->S.SelfActive, 1750);
  EXPECT_EQ(find(B, "X")->S.Sampled, 750);
  unsigned CountedNodes = 0;
  for (const TreeNode &N : B.Tree)
    CountedNodes += N.Counted;
  EXPECT_EQ(CountedNodes, 1u);
}

TEST(AggregateCounted, RuntimeSamplesExcluded) {
  // A frame with 6 samples in its own code, 2 in counted X and 100 in the
  // runtime (probes, whose time is already removed): the split uses 8
  // samples (its own ratios, X = 1/4), not 108, and the runtime's are
  // reported apart. Samples outside any frame (kNoNode) are not used.
  Process P = makeProcess({"P", "X"});
  Thread T = makeThread(1, {{Root, 0, 1, 4000, 4000, 4000, 4000}});
  T.Counts = {{0, false, 1}, {1, true, 30}};
  T.CodeSamples = {resolved(0, 0, 6), resolved(0, 1, 2),
                   resolved(0, 0, 100, 0, CodeKind::Runtime),
                   resolved(raw::kNoNode, 1, 9)};
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  EXPECT_EQ(find(A, "X")->S.SelfActive, 1000);
  EXPECT_EQ(find(A, "X")->S.Samples, 2u);
  EXPECT_EQ(find(A, "P")->S.SelfActive, 3000);
  EXPECT_DOUBLE_EQ(find(A, "X")->S.SelfVar, splitVar(4000, 0.25, 8));
  EXPECT_EQ(A.How.CodeSamples, 8u);
  EXPECT_EQ(A.How.RuntimeSamples, 100u);
  EXPECT_EQ(A.How.SampledNs, 1000);
}

TEST(Aggregate, TicksToNsKeepsPrecision) {
  Process P;
  P.TickRate = 3000000000; // 3 GHz TSC
  EXPECT_DOUBLE_EQ(ticksToNs(P, 3), 1.0);
  EXPECT_DOUBLE_EQ(ticksToNs(P, 3000000000ull * 86400 + 3), 86400e9 + 1);
}

// The +-95% of active and self-active times (ErrorParts, halfWidth95): a
// process with a 10 ns tick step (2560 = 10 ticks * 256 at 1 GHz), a probe
// residual of 2 ns a pair (enter 1 + exit 1, unmeasured table) and code
// samples costing 4 us each, removed once per sample recorded in a frame.
TEST(FigureErrors, TickStepResidualAndSampleCost) {
  Process P = makeProcess({"main", "f"});
  P.TickStep256 = 2560;
  P.Overhead.Enter256 = 256;
  P.Overhead.Exit256 = 256;
  P.CodeSamplePeriodNs = 100000;
  P.CodeSampleCost256 = 4000 * 256;
  // main (1 call) -> f (3 calls); 2 samples recorded in f's frame, both
  // in f's own code, 1 in main's.
  Thread T = makeThread(1, {{Root, 0, 1, 50000, 20000, 50000, 50000},
                            {0, 1, 3, 30000, 30000, 10000, 10000}});
  T.CodeSamples = {resolved(1, 1, 2), resolved(0, 0, 1)};
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const FunctionStats *Main = find(A, "main"), *F = find(A, "f");
  ASSERT_TRUE(Main && F);
  double Step = 10, Cost = 4000 * kSampleCostUncertainty;
  // f: 3 pairs in its self and inclusive time: residual 3 x 2 ns; 6 tick
  // readings' rounding, 1.96 x sqrt(6 / 6) x 10 ns (under its bound 60 ns);
  // its 2 samples' cost.
  double FErr = 3 * 2 + 1.96 * std::sqrt(6.0 / 6) * Step + 2 * Cost;
  ActiveFigures FF = activeFigures(F->S);
  EXPECT_TRUE(FF.HasActive);
  EXPECT_NEAR(FF.Active.Error, FErr, 1e-9);
  // Its self time also has the split's sampling variance (all 2 samples
  // in its own code still leave one: the rule-of-succession share).
  EXPECT_NEAR(FF.Self.Error,
              FErr + 1.96 * std::sqrt(splitVar(30000, 1, 2)), 1e-9);
  // main's self time holds its own pair and f's 3 (their exits and
  // elapsed times are subtracted) and its own sample; its inclusive time
  // every pair (4) and every sample in its subtree (3).
  ActiveFigures MF = activeFigures(Main->S);
  EXPECT_NEAR(MF.Self.Error,
              4 * 2 + 1.96 * std::sqrt(8.0 / 6) * Step + 1 * Cost +
                  1.96 * std::sqrt(splitVar(20000, 1, 1)),
              1e-9);
  EXPECT_NEAR(MF.Active.Error,
              4 * 2 + 1.96 * std::sqrt(8.0 / 6) * Step + 3 * Cost, 1e-9);
  EXPECT_EQ(A.How.ChargedSamples, 3u);
  EXPECT_EQ(A.How.SampleCostUncertaintyNs, 3 * Cost);
  // A cost the runtime could not measure was not removed: no uncertainty.
  Prof.Processes[0].CodeSampleFlags |= raw::CSF_CostUnmeasured;
  Aggregate B = aggregate(Prof);
  EXPECT_NEAR(activeFigures(find(B, "f")->S).Active.Error,
              3 * 2 + 1.96 * Step, 1e-9);
}

TEST(FigureErrors, ThreadTotalFromTheSameParts) {
  // A thread's total self-active time is checked against its CPU clock
  // within the total's own +-95%: its functions' self error parts and
  // split variances added up, through halfWidth95 like every figure. Here
  // main's self holds 4 pairs, f's 3; 3 charged samples; the splits of 2
  // frames.
  Process P = makeProcess({"main", "f"});
  P.TickStep256 = 2560;
  P.Overhead.Enter256 = 256;
  P.Overhead.Exit256 = 256;
  P.CodeSamplePeriodNs = 100000;
  P.CodeSampleCost256 = 4000 * 256;
  Thread T = makeThread(1, {{Root, 0, 1, 50000, 20000, 50000, 50000},
                            {0, 1, 3, 30000, 30000, 10000, 10000}});
  T.CodeSamples = {resolved(1, 1, 2), resolved(0, 0, 1)};
  T.CpuNs = 49000;
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  ASSERT_EQ(A.Threads.size(), 1u);
  const ThreadSummary &TS = A.Threads[0];
  double Step = 10, Cost = 4000 * kSampleCostUncertainty;
  ErrorParts E;
  E.ResidualNs = 7 * 2;
  E.QuantVarNs2 = 14 * Step * Step / 6;
  E.QuantMaxNs = 14 * Step;
  E.SampleCostNs = 3 * Cost;
  double Var = splitVar(30000, 1, 2) + splitVar(20000, 1, 1);
  EXPECT_NEAR(TS.TotalSelfActiveErrNs, halfWidth95(E, Var), 1e-6);
  EXPECT_DOUBLE_EQ(TS.TotalSelfActive, 50000);
  EXPECT_DOUBLE_EQ(TS.CpuNs, 49000);
  // 1 us over the clock is within the bound (tens of us of sample cost).
  EXPECT_FALSE(TS.exceedsCpu());
  // Far over it is not.
  Prof.Processes[0].Threads[0].CpuNs = 20000;
  EXPECT_TRUE(aggregate(Prof).Threads[0].exceedsCpu());
  // A clock not read is never exceeded.
  Prof.Processes[0].Threads[0].CpuNs = raw::kCpuUnknown;
  EXPECT_FALSE(aggregate(Prof).Threads[0].exceedsCpu());
}

TEST(FigureErrors, RoundingNeverAboveItsBound) {
  // One reading of a 10 ns counter is off by less than 10 ns: the normal
  // approximation (1.96 x sqrt(1/6) x 10 = 8.0 ns) is below the bound
  // here, but for M readings the bound M x S caps it.
  ErrorParts E;
  E.QuantVarNs2 = 100.0 / 6;
  E.QuantMaxNs = 10;
  EXPECT_NEAR(halfWidth95(E, 0), 1.96 * std::sqrt(100.0 / 6), 1e-12);
  E.QuantMaxNs = 5;
  EXPECT_EQ(halfWidth95(E, 0), 5);
  // Bounds add in full; the sampling variance as 1.96 standard deviations.
  E.ResidualNs = 7;
  E.SampleCostNs = 100;
  EXPECT_NEAR(halfWidth95(E, 400), 5 + 7 + 100 + 1.96 * 20, 1e-12);
  // A share of a figure takes the same share of each bound, and its
  // square of each variance.
  ErrorParts H = E.scaled(0.25);
  EXPECT_EQ(H.ResidualNs, 1.75);
  EXPECT_EQ(H.SampleCostNs, 25);
  EXPECT_EQ(H.QuantVarNs2, E.QuantVarNs2 / 16);
  EXPECT_EQ(H.QuantMaxNs, 1.25);
}

TEST(FigureErrors, SplitSharesTheFramesErrors) {
  // P's self time (3000) is split 3:1 between P and counted X by 8
  // samples: X's part takes 1/4 of the frame's residual, rounding and
  // sample cost, P keeps 3/4; the parts add up to the frame's.
  Process P = makeProcess({"P", "X"});
  P.Overhead.Enter256 = 256 * 4;
  P.CodeSamplePeriodNs = 100000;
  P.CodeSampleCost256 = 1000 * 256;
  Thread T = makeThread(1, {{Root, 0, 1, 3000, 3000, 3000, 3000}});
  T.Counts = {{0, false, 1}, {1, true, 100}};
  T.CodeSamples = {resolved(0, 0, 6), resolved(0, 1, 2)};
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const Stats &SP = find(A, "P")->S, &SX = find(A, "X")->S;
  double Cost = 8 * 1000 * kSampleCostUncertainty;
  EXPECT_NEAR(SP.SelfErr.SampleCostNs, 0.75 * Cost, 1e-9);
  EXPECT_NEAR(SX.SelfErr.SampleCostNs, 0.25 * Cost, 1e-9);
  EXPECT_NEAR(SP.SelfErr.ResidualNs + SX.SelfErr.ResidualNs, 4, 1e-12);
  EXPECT_NEAR(SX.SelfErr.ResidualNs, 1, 1e-12);
  // P's inclusive time is not split: all of it.
  EXPECT_NEAR(SP.ActiveErr.SampleCostNs, Cost, 1e-9);
}

// Figures outside what they can be are printed at the bound, marked, with
// the measured value and its +-95% kept.
TEST(FigureClamp, NegativeSelfAboveActiveAboveElapsed) {
  Stats S;
  S.Calls = 4;
  S.Elapsed = 1000;
  S.Active = -50;
  S.SelfActive = -80;
  S.SelfErr.ResidualNs = 100;
  ActiveFigures F = activeFigures(S);
  ASSERT_TRUE(F.HasActive);
  EXPECT_EQ(F.Active.Shown, 0);
  EXPECT_TRUE(F.Active.Clamped);
  EXPECT_EQ(F.Active.Measured, -50);
  EXPECT_EQ(F.Self.Shown, 0);
  EXPECT_TRUE(F.Self.Clamped);
  EXPECT_EQ(F.Self.Measured, -80);
  EXPECT_EQ(F.Self.Error, 100);
  // Self above active: self is printed at active.
  S.Active = 300;
  S.SelfActive = 360;
  F = activeFigures(S);
  EXPECT_FALSE(F.Active.Clamped);
  EXPECT_EQ(F.Self.Shown, 300);
  EXPECT_TRUE(F.Self.Clamped);
  // Active above elapsed: active is printed at elapsed, self below it.
  S.Active = 1200;
  S.SelfActive = 1100;
  F = activeFigures(S);
  EXPECT_EQ(F.Active.Shown, 1000);
  EXPECT_EQ(F.Self.Shown, 1000);
  EXPECT_TRUE(F.Active.Clamped && F.Self.Clamped);
  // In range: nothing clamped.
  S.Active = 500;
  S.SelfActive = 200;
  F = activeFigures(S);
  EXPECT_FALSE(F.Active.Clamped || F.Self.Clamped);
  EXPECT_EQ(F.Self.Shown, 200);
  // A function with counted calls has no inclusive figure: self is only
  // bounded below.
  S.CountedCalls = 10;
  S.SelfActive = 5000;
  F = activeFigures(S);
  EXPECT_FALSE(F.HasActive);
  EXPECT_EQ(F.Self.Shown, 5000);
  EXPECT_FALSE(F.Self.Clamped);
  // A counted tree node: its active time is its self time.
  S.SelfActive = -1;
  F = activeFigures(S, /*CountedNode=*/true);
  EXPECT_TRUE(F.HasActive && F.Self.Clamped && F.Active.Clamped);
  EXPECT_EQ(F.Active.Shown, 0);
}

TEST(FigureClamp, UncountedCalleeCodeAddsToItsActiveTime) {
  // P's samples fall in X's code, X has no counted calls on the thread and
  // no timed node under P (its timed call was made elsewhere): that code
  // ran outside X's probes, so it adds to X's self and inclusive time (and
  // elapsed), not to "counted" time; the tree marks it [outside probes].
  Process P = makeProcess({"main", "P", "X"});
  Thread T = makeThread(1, {{Root, 0, 1, 5000, 1000, 5000, 5000},
                            {0, 1, 1, 3000, 3000, 3000, 3000},
                            {0, 2, 1, 1000, 1000, 1000, 1000}});
  T.Counts = {{0, false, 1}, {1, false, 1}, {2, false, 1}};
  T.CodeSamples = {resolved(1, 1, 6), resolved(1, 2, 2)};
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const Stats &X = find(A, "X")->S;
  EXPECT_EQ(X.CountedCalls, 0u);
  EXPECT_EQ(X.SelfActive, 1000 + 750);
  EXPECT_EQ(X.Active, 1000 + 750);
  EXPECT_EQ(X.Elapsed, 1000 + 750);
  EXPECT_EQ(X.Sampled, 0);
  EXPECT_FALSE(activeFigures(X).Self.Clamped);
  EXPECT_EQ(A.How.SampledNs, 0);
  EXPECT_EQ(A.How.OutsideProbesNs, 750);
  EXPECT_EQ(find(A, "P")->S.SelfElapsed, 3000 - 750);
  unsigned Outside = 0;
  for (const TreeNode &N : A.Tree)
    if (N.OutsideProbes) {
      ++Outside;
      EXPECT_TRUE(N.Counted);
      EXPECT_EQ(A.Functions[N.Func].Name, "X");
      EXPECT_EQ(N.S.SelfActive, 750);
    }
  EXPECT_EQ(Outside, 1u);
}

TEST(FigureClamp, UncountedCodeOfAFunctionNeverCalledStaysInTheTotals) {
  // P's samples fall in X's code, and X has neither calls nor counts on
  // the thread (its code ran without its probes: entered by a jump, or
  // its probes gated off): the 750 moved to X is X's, in the flat table
  // as in the thread's, and the process total is the threads' total.
  Process P = makeProcess({"main", "P", "X"});
  Thread T = makeThread(1, {{Root, 0, 1, 5000, 2000, 5000, 5000},
                            {0, 1, 1, 3000, 3000, 3000, 3000}});
  T.Counts = {{0, false, 1}, {1, false, 1}};
  T.CodeSamples = {resolved(1, 1, 6), resolved(1, 2, 2)};
  P.Threads.push_back(T);
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  const FunctionStats *X = find(A, "X");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->S.SelfActive, 750);
  EXPECT_EQ(X->S.Calls, 0u);
  ASSERT_EQ(A.Threads.size(), 1u);
  EXPECT_DOUBLE_EQ(A.TotalSelfActive, A.Threads[0].TotalSelfActive);
  EXPECT_DOUBLE_EQ(A.TotalSelfActive, 5000);
}

TEST(FunctionNames, TimedCopyIsItsFunction) {
  EXPECT_EQ(sourceFunctionName("f.activetime.timed"), "f");
  EXPECT_EQ(sourceFunctionName("_Z1fv.activetime.timed"), "_Z1fv");
  EXPECT_EQ(sourceFunctionName("f.activetime.timed.cold.1"), "f");
  EXPECT_EQ(sourceFunctionName("f.activetime.timed.llvm.42"), "f");
  EXPECT_EQ(sourceFunctionName("f() (.activetime.timed)"), "f()");
  EXPECT_EQ(sourceFunctionName("f() (.activetime.timed.cold.1)"), "f()");
  EXPECT_EQ(sourceFunctionName("f.activetime.timedx"),
            "f.activetime.timedx");
  EXPECT_EQ(sourceFunctionName("main"), "main");
  EXPECT_EQ(sourceFunctionName(".activetime.timed"), ".activetime.timed");
  // The aggregate names a timed copy's table entry by its function and
  // merges the two.
  Process P = makeProcess({"_Z1fv", "_Z1fv.activetime.timed"});
  P.Threads.push_back(makeThread(1, {{Root, 0, 1, 100, 100, 100, 100},
                                     {Root, 1, 2, 50, 50, 25, 25}}));
  Profile Prof;
  Prof.Processes.push_back(P);
  Aggregate A = aggregate(Prof);
  ASSERT_EQ(A.Flat.size(), 1u);
  EXPECT_EQ(A.Functions[A.Flat[0].Func].Name, "_Z1fv");
  EXPECT_EQ(A.Flat[0].S.Calls, 3u);
}

} // namespace
