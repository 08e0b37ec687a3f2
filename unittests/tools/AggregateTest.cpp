//===- AggregateTest.cpp - Profile aggregation tests ------------------------===//
//
// Part of ActiveTime. Recursion must not double count inclusive time,
// function identity follows linkage, and the merged tree combines threads
// and processes after converting each process's ticks to nanoseconds.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Aggregate.h"
#include "activetime/abi.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

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

Thread makeThread(uint64_t Tid, std::vector<Node> Nodes) {
  Thread T;
  T.Tid = Tid;
  T.EndTick = 1000000;
  T.Nodes = std::move(Nodes);
  return T;
}

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

TEST(Aggregate, TicksToNsKeepsPrecision) {
  Process P;
  P.TickRate = 3000000000; // 3 GHz TSC
  EXPECT_DOUBLE_EQ(ticksToNs(P, 3), 1.0);
  EXPECT_DOUBLE_EQ(ticksToNs(P, 3000000000ull * 86400 + 3), 86400e9 + 1);
}

} // namespace
