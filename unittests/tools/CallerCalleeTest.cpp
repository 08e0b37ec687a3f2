//===- CallerCalleeTest.cpp - Callers, callees and the inverted tree ------===//
//
// Part of ActiveTime. The call-site rows count recursion once (a
// function's callers' active times sum to its inclusive active time; one
// function in several modules' tables is one function), and the inversion
// puts every node's self time on the path up from it: a function's paths sum to
// its self time, a node's children to its time less the paths ending there;
// the depth limit cuts paths and says so; deep trees invert without
// recursion.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallSites.h"
#include "activetime/Profile/CallerCallee.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>

using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;

Profile makeProfile(std::vector<std::string> Names,
                    std::vector<std::vector<Node>> Threads) {
  Process P;
  P.TickRate = 1000000000;
  P.Exe = "/bin/app";
  P.Modules.push_back({1, 0, 0, "m.c", "/bin/app"});
  for (std::string &N : Names)
    P.Functions.push_back({0, 0, 1, 0, N, "m.c"});
  uint64_t Tid = 1;
  for (std::vector<Node> &Nodes : Threads) {
    Thread T;
    T.Tid = Tid++;
    T.Nodes = std::move(Nodes);
    P.Threads.push_back(std::move(T));
  }
  Profile Prof;
  Prof.Processes.push_back(std::move(P));
  return Prof;
}

uint32_t idOf(const Aggregate &A, const std::string &Name) {
  for (uint32_t I = 0; I < A.Functions.size(); ++I)
    if (A.Functions[I].Name == Name)
      return I;
  return UINT32_MAX;
}

/// main -> x -> leaf (5); main -> y -> leaf (2) -> leaf (1); other -> leaf.
Profile callersProfile() {
  return makeProfile({"main", "x", "y", "leaf", "other"},
                     {{{Root, 0, 1, 1000, 100},
                       {0, 1, 1, 600, 100},
                       {1, 3, 30, 500, 500},
                       {0, 2, 1, 300, 100},
                       {3, 3, 10, 200, 100},
                       {4, 3, 10, 100, 100}},
                      {{Root, 4, 2, 400, 200}, {0, 3, 4, 200, 200}}});
}

TEST(CallSiteRows, RecursionCountedOnce) {
  // No call site recorded: each node's caller is its parent's function.
  Profile P = callersProfile();
  Aggregate A = aggregate(P);
  CallSiteTable T = placeCalls(P, A, nullptr);
  uint32_t Leaf = idOf(A, "leaf");
  std::map<uint32_t, std::tuple<uint64_t, uint64_t, double>> Callers;
  double Sum = 0;
  for (uint32_t I : T.ByCallee[Leaf]) {
    const SiteRow &X = T.Rows[I];
    EXPECT_EQ(X.Kind, CallerKind::Function);
    Callers[X.Caller] = {X.Timed, X.RecursiveTimed, X.ActiveNs};
    Sum += X.ActiveNs;
  }
  ASSERT_EQ(Callers.size(), 4u);
  EXPECT_EQ(Callers[idOf(A, "x")], std::make_tuple(30ull, 0ull, 500.0));
  EXPECT_EQ(Callers[idOf(A, "y")], std::make_tuple(10ull, 0ull, 200.0));
  EXPECT_EQ(Callers[idOf(A, "other")], std::make_tuple(4ull, 0ull, 200.0));
  EXPECT_EQ(Callers[Leaf], std::make_tuple(10ull, 10ull, 0.0));
  // The callers' active times sum to leaf's inclusive active time.
  for (const FunctionStats &F : A.Flat)
    if (F.Func == Leaf)
      EXPECT_EQ(Sum, F.S.Active);
  // The first caller is the heaviest.
  EXPECT_EQ(T.Rows[T.ByCallee[Leaf][0]].Caller, idOf(A, "x"));
  // main's callees; its own caller is the thread root.
  ASSERT_EQ(T.ByCaller[idOf(A, "main")].size(), 2u);
  ASSERT_EQ(T.ByCallee[idOf(A, "main")].size(), 1u);
  const SiteRow &Root = T.Rows[T.ByCallee[idOf(A, "main")][0]];
  EXPECT_EQ(Root.Kind, CallerKind::ThreadRoot);
  EXPECT_EQ(Root.Caller, kNoFunc);
}

TEST(CallSiteRows, RecursionAcrossModulesCountedOnce) {
  // An inline function is in the table of each module that uses it: f of
  // the second module calling f of the first is recursion of one function,
  // as Aggregate counts it.
  Profile P = makeProfile({"main", "f"}, {{{Root, 0, 1, 1000, 400},
                                           {0, 1, 1, 600, 200},
                                           {1, 2, 3, 400, 400}}});
  Process &Pr = P.Processes[0];
  Pr.Modules.push_back({2, 0, 0, "n.c", "/bin/app"});
  Pr.Functions.push_back({1, 0, 1, 0, "f", "n.c"});
  Aggregate A = aggregate(P);
  CallSiteTable T = placeCalls(P, A, nullptr);
  uint32_t F = idOf(A, "f");
  double Sum = 0;
  uint64_t Recursive = 0;
  for (uint32_t I : T.ByCallee[F]) {
    Sum += T.Rows[I].ActiveNs;
    Recursive += T.Rows[I].RecursiveTimed;
  }
  EXPECT_EQ(Recursive, 3u);
  for (const FunctionStats &FS : A.Flat)
    if (FS.Func == F)
      EXPECT_EQ(Sum, FS.S.Active);
}

TEST(CallSiteRows, OneRowPerCallInstructionWithoutLines) {
  // leaf called from two instructions of main, which no symbolizer places
  // in the source: two rows with their own calls; the object is the
  // caller's module's file, the address its link-time one.
  Profile P = makeProfile({"main", "leaf"}, {{{Root, 0, 1, 1000, 400},
                                              {0, 1, 5, 500, 500},
                                              {0, 1, 1, 100, 100}}});
  auto &N = P.Processes[0].Threads[0].Nodes;
  N[1].CallSite = 0x7f0000001234;
  N[1].Site = {0, 0x1234};
  N[2].CallSite = 0x7f0000001250;
  N[2].Site = {0, 0x1250};
  Aggregate A = aggregate(P);
  CallSiteTable T = placeCalls(P, A, nullptr);
  uint32_t Leaf = idOf(A, "leaf");
  ASSERT_EQ(T.ByCallee[Leaf].size(), 2u);
  const SiteRow &First = T.Rows[T.ByCallee[Leaf][0]];
  const SiteRow &Second = T.Rows[T.ByCallee[Leaf][1]];
  const CallEdge &E1 = T.Graph.Edges[First.Edges[0]];
  EXPECT_EQ(E1.ReturnAddr, 0x1234u);
  EXPECT_EQ(E1.Object, "/bin/app");
  EXPECT_EQ(First.Timed, 5u);
  EXPECT_EQ(First.ActiveNs, 500);
  EXPECT_EQ(T.Graph.Edges[Second.Edges[0]].ReturnAddr, 0x1250u);
  EXPECT_EQ(Second.Timed, 1u);
  EXPECT_EQ(T.ByCaller[idOf(A, "main")].size(), 2u);
}

/// Every node's children plus the paths ending there sum to its time.
void expectConsistent(const std::vector<InvertedNode> &Inv) {
  for (uint32_t I = 1; I < Inv.size(); ++I) {
    EXPECT_LT(Inv[I].Parent, I);
    if (Inv[I].Truncated)
      continue;
    double Sum = Inv[I].EndsNs;
    for (uint32_t C : Inv[I].Children)
      Sum += Inv[C].SelfActiveNs;
    EXPECT_NEAR(Sum, Inv[I].SelfActiveNs, 1e-6) << I;
  }
}

TEST(InvertTree, PathsCarryTheSelfTime) {
  Profile P = callersProfile();
  Aggregate A = aggregate(P);
  std::vector<InvertedNode> Inv = invertTree(A, 0);
  expectConsistent(Inv);
  // Roots: the functions by self time, each with its flat self time.
  ASSERT_EQ(Inv[0].Children.size(), A.Flat.size());
  for (uint32_t R : Inv[0].Children)
    for (const FunctionStats &F : A.Flat)
      if (F.Func == Inv[R].Func)
        EXPECT_EQ(Inv[R].SelfActiveNs, F.S.SelfActive);
  EXPECT_EQ(Inv[0].SelfActiveNs, A.TotalSelfActive);
  // leaf (900): <- x 500, <- other 200, <- leaf 100, <- y 100.
  const InvertedNode &Leaf = Inv[Inv[0].Children[0]];
  EXPECT_EQ(Leaf.Func, idOf(A, "leaf"));
  EXPECT_EQ(Leaf.SelfActiveNs, 900);
  std::vector<std::pair<uint32_t, double>> Got;
  for (uint32_t C : Leaf.Children)
    Got.emplace_back(Inv[C].Func, Inv[C].SelfActiveNs);
  std::vector<std::pair<uint32_t, double>> Want = {{idOf(A, "x"), 500},
                                                   {idOf(A, "other"), 200},
                                                   {idOf(A, "leaf"), 100},
                                                   {idOf(A, "y"), 100}};
  EXPECT_EQ(Got, Want);
}

TEST(InvertTree, DepthLimitCutsAndSaysSo) {
  Profile P = callersProfile();
  Aggregate A = aggregate(P);
  std::vector<InvertedNode> Inv = invertTree(A, 2);
  expectConsistent(Inv);
  for (const InvertedNode &N : Inv)
    EXPECT_LE(N.Depth, 2u);
  const InvertedNode &Leaf = Inv[Inv[0].Children[0]];
  const InvertedNode &ViaX = Inv[Leaf.Children[0]];
  EXPECT_TRUE(ViaX.Truncated);                   // main above x was cut
  EXPECT_FALSE(Inv[Leaf.Children[1]].Truncated); // other is a root
}

TEST(InvertTree, DeepChainWithoutRecursion) {
  constexpr uint32_t Depth = 100000;
  std::vector<Node> Nodes;
  for (uint32_t I = 0; I < Depth; ++I)
    Nodes.push_back({I ? I - 1 : Root, I % 2, 1, uint64_t(Depth - I) * 10, 10});
  Profile P = makeProfile({"f", "g"}, {std::move(Nodes)});
  Aggregate A = aggregate(P);
  // The limit bounds the work: every path followed 64 levels at most.
  std::vector<InvertedNode> Inv = invertTree(A, 64);
  expectConsistent(Inv);
  ASSERT_EQ(Inv[0].Children.size(), 2u);
  EXPECT_NEAR(Inv[0].SelfActiveNs, double(Depth) * 10, 1e-6);
  // f <- g <- f ...: one path per root, 64 levels.
  EXPECT_EQ(Inv.size(), 1u + 2 * 64);
}

} // namespace
