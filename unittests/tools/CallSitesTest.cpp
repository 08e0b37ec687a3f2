//===- CallSitesTest.cpp - Call-site edges ----------------------------------===//
//
// Part of ActiveTime. buildCallGraph on hand-made profiles: timed calls are
// exact per call instruction, counted calls go to call sites in proportion
// to their samples from each site (else to the timed calls' sites, else
// nowhere), and threads and processes of one binary add up.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/CallSites.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;
enum : uint32_t { kMain = 0, kF = 1, kG = 2 };

Process makeProcess() {
  Process P;
  P.TickRate = 1000000000;
  P.Exe = "/bin/app";
  P.Modules.push_back({1, 0, 0, "m.c", "/bin/app"});
  for (const char *N : {"main", "f", "g"})
    P.Functions.push_back({0, 0, 1, 0, N, "m.c"});
  return P;
}

/// A node of Calls calls of Func under Parent, called from main's code at
/// link-time return address Ret (0: from outside the program).
Node node(uint32_t Parent, uint32_t Func, uint64_t Calls, uint64_t Ret) {
  Node N;
  N.Parent = Parent;
  N.Func = Func;
  N.Calls = Calls;
  N.Incl = N.Excl = Calls * 100;
  N.Min = N.Max = 100;
  N.CallSite = Ret;
  if (Ret)
    N.Site = {kMain, Ret};
  return N;
}

/// Count samples of Func in a counted call (node 0: main's frame) whose
/// frame returns to Ret in main.
CodeSample sampleFrom(uint32_t Func, uint64_t Ret, uint64_t Count) {
  CodeSample S;
  S.Node = 0;
  S.Addr = 0x2000;
  S.Count = Count;
  S.Kind = CodeKind::Function;
  S.Func = Func;
  S.Caller = Ret;
  S.CallerAt = {kMain, Ret};
  return S;
}

const CallEdge *edge(const CallGraph &G, const Aggregate &A,
                     const std::string &Callee, uint64_t Ret) {
  for (const CallEdge &E : G.Edges)
    if (A.Functions[E.Callee].Name == Callee && E.ReturnAddr == Ret)
      return &E;
  return nullptr;
}

/// Every call of function Func (its flat figure), which the edges and their
/// placements account for.
uint64_t callsOf(const Aggregate &A, uint32_t Func) {
  for (const FunctionStats &F : A.Flat)
    if (F.Func == Func)
      return F.S.Calls;
  return 0;
}

TEST(CallSites, TimedCallsPerCallInstruction) {
  // main calls f from two instructions (30 and 10 calls) and g from one
  // that also reached f once (an indirect call): three f edges, exact.
  Profile Prof;
  Prof.Processes.push_back(makeProcess());
  Thread T;
  T.Nodes = {node(Root, kMain, 1, 0), node(0, kF, 30, 0x1010),
             node(0, kF, 10, 0x1020), node(0, kG, 5, 0x1030),
             node(0, kF, 1, 0x1030)};
  Prof.Processes[0].Threads.push_back(T);
  Aggregate A = aggregate(Prof);
  CallGraph G = buildCallGraph(Prof, A);
  ASSERT_NE(edge(G, A, "f", 0x1010), nullptr);
  EXPECT_EQ(edge(G, A, "f", 0x1010)->Timed, 30u);
  EXPECT_EQ(edge(G, A, "f", 0x1020)->Timed, 10u);
  EXPECT_EQ(edge(G, A, "f", 0x1030)->Timed, 1u);
  EXPECT_EQ(edge(G, A, "g", 0x1030)->Timed, 5u);
  EXPECT_EQ(edge(G, A, "f", 0x1010)->Object, "/bin/app");
  EXPECT_EQ(A.Functions[edge(G, A, "f", 0x1010)->Caller].Name, "main");
  // main itself was called from outside the program.
  const CallEdge *M = edge(G, A, "main", 0);
  ASSERT_NE(M, nullptr);
  EXPECT_EQ(M->Caller, kNoFunc);
  // Edges are sorted by callee, then calls, largest first.
  for (size_t I = 1; I < G.Edges.size(); ++I)
    if (G.Edges[I].Callee == G.Edges[I - 1].Callee)
      EXPECT_GE(G.Edges[I - 1].calls(), G.Edges[I].calls());
}

TEST(CallSites, CountedCallsPlacedBySamplesThenTimedShare) {
  // f: 16 timed calls from 0x1010, then 984 counted (1000 in all); its
  // samples in counted calls: 3 from 0x1010, 1 from 0x1020 -> 738 and 246.
  // A sample of f in its own timed frame (node 1) places nothing.
  // g: 4 timed from 0x1030 and 12 from 0x1040, 84 counted, no samples ->
  // by the timed share, 21 and 63.
  Profile Prof;
  Prof.Processes.push_back(makeProcess());
  Thread T;
  T.Nodes = {node(Root, kMain, 1, 0), node(0, kF, 16, 0x1010),
             node(0, kG, 4, 0x1030), node(0, kG, 12, 0x1040)};
  T.Counts = {{kMain, false, 1}, {kF, true, 1000}, {kG, true, 100}};
  T.CodeSamples = {sampleFrom(kF, 0x1010, 3), sampleFrom(kF, 0x1020, 1)};
  CodeSample InTimed = sampleFrom(kF, 0x1020, 50);
  InTimed.Node = 1;
  T.CodeSamples.push_back(InTimed);
  Prof.Processes[0].Threads.push_back(T);
  Aggregate A = aggregate(Prof);
  CallGraph G = buildCallGraph(Prof, A);
  const CallEdge *F1 = edge(G, A, "f", 0x1010), *F2 = edge(G, A, "f", 0x1020);
  ASSERT_TRUE(F1 && F2);
  EXPECT_EQ(F1->Timed, 16u);
  EXPECT_DOUBLE_EQ(F1->Counted, 738);
  EXPECT_EQ(F1->Samples, 3u);
  EXPECT_EQ(F2->Timed, 0u);
  EXPECT_DOUBLE_EQ(F2->Counted, 246);
  EXPECT_DOUBLE_EQ(edge(G, A, "g", 0x1030)->Counted, 21);
  EXPECT_DOUBLE_EQ(edge(G, A, "g", 0x1040)->Counted, 63);
  uint32_t FId = F1->Callee, GId = edge(G, A, "g", 0x1030)->Callee;
  EXPECT_EQ(G.Placement[FId].BySamples, 984u);
  EXPECT_EQ(G.Placement[GId].ByTimedShare, 84u);
  EXPECT_EQ(callsOf(A, FId), 1000u);
  EXPECT_EQ(callsOf(A, GId), 100u);
}

TEST(CallSites, ThreadsAndProcessesAddUp) {
  // The same binary in two processes (at different load addresses: the
  // link-time return address is what matches), two threads in the first.
  Profile Prof;
  for (int I = 0; I < 2; ++I) {
    Process P = makeProcess();
    P.Pid = 10 + I;
    for (int J = 0; J <= (I == 0); ++J) {
      Thread T;
      T.Tid = 100 + J;
      T.Nodes = {node(Root, kMain, 1, 0), node(0, kF, 7, 0x1010)};
      T.Nodes[1].CallSite = 0x7f0000001010 + I * 0x1000;
      P.Threads.push_back(T);
    }
    Prof.Processes.push_back(P);
  }
  Aggregate A = aggregate(Prof);
  CallGraph G = buildCallGraph(Prof, A);
  ASSERT_NE(edge(G, A, "f", 0x1010), nullptr);
  EXPECT_EQ(edge(G, A, "f", 0x1010)->Timed, 21u);
  EXPECT_EQ(callsOf(A, edge(G, A, "f", 0x1010)->Callee), 21u);
}

TEST(CallSites, CountedCallsWithNoSiteStayUnplaced) {
  // Every call of f was counted (no timed node, no sample with a caller).
  Profile Prof;
  Prof.Processes.push_back(makeProcess());
  Thread T;
  T.Nodes = {node(Root, kMain, 1, 0)};
  T.Counts = {{kMain, false, 1}, {kF, true, 50}};
  Prof.Processes[0].Threads.push_back(T);
  Aggregate A = aggregate(Prof);
  CallGraph G = buildCallGraph(Prof, A);
  uint32_t FId = 0;
  for (uint32_t I = 0; I < A.Functions.size(); ++I)
    if (A.Functions[I].Name == "f")
      FId = I;
  EXPECT_EQ(G.Placement[FId].Unplaced, 50u);
  EXPECT_EQ(callsOf(A, FId), 50u);
  for (const CallEdge &E : G.Edges)
    EXPECT_NE(E.Callee, FId);
}

} // namespace

namespace {

/// The caller of every timed call is the function holding its call
/// instruction: here f, though f was only counted (no node) and g's node
/// hangs under main, its nearest timed caller.
TEST(CallSitePlacement, CallerIsTheCodeThatCalledNotTheNearestTimedFrame) {
  Profile Prof;
  Prof.Processes.push_back(makeProcess());
  Thread T;
  T.Nodes = {node(Root, kMain, 1, 0), node(0, kG, 6, 0x2010)};
  T.Nodes[1].Site = {kF, 0x2010};
  T.Counts = {{kMain, false, 1}, {kF, true, 3}, {kG, false, 6}};
  Prof.Processes[0].Threads.push_back(T);
  Aggregate A = aggregate(Prof);
  CallSiteTable Tab = placeCalls(Prof, A, nullptr);
  uint32_t G = 0, F = 0;
  for (uint32_t I = 0; I < A.Functions.size(); ++I) {
    if (A.Functions[I].Name == "g")
      G = I;
    if (A.Functions[I].Name == "f")
      F = I;
  }
  ASSERT_EQ(Tab.ByCallee[G].size(), 1u);
  const SiteRow &R = Tab.Rows[Tab.ByCallee[G][0]];
  EXPECT_EQ(R.Kind, CallerKind::Function);
  EXPECT_EQ(R.Caller, F);
  EXPECT_EQ(R.Timed, 6u);
  // The callers view of f lists g as its callee (the same row).
  ASSERT_EQ(Tab.ByCaller[F].size(), 1u);
  EXPECT_EQ(Tab.ByCaller[F][0], Tab.ByCallee[G][0]);
}

/// Without program code at the call site: the thread's root call, a
/// library calling back inside a timed call (the site is known to be
/// outside: every object was read), and a site that could not be resolved
/// (the nearest timed caller, flagged).
TEST(CallSitePlacement, RootsCallbacksAndUnresolvedSites) {
  Profile Prof;
  Prof.Processes.push_back(makeProcess());
  Thread T;
  T.Nodes = {node(Root, kMain, 1, 0), node(0, kF, 4, 0), node(0, kG, 2, 0)};
  T.Nodes[0].CallSite = 0x7fff0000; // libc's call of main: outside
  T.Nodes[0].Site.Known = true;
  T.Nodes[1].CallSite = 0x7fff1000; // qsort calling back f, inside main
  T.Nodes[1].Site.Known = true;
  T.Nodes[2].CallSite = 0x401000;   // recorded, but not resolvable
  Prof.Processes[0].Threads.push_back(T);
  Aggregate A = aggregate(Prof);
  CallSiteTable Tab = placeCalls(Prof, A, nullptr);
  auto RowOf = [&](const char *Name) -> const SiteRow & {
    for (const SiteRow &R : Tab.Rows)
      if (A.Functions[R.Callee].Name == Name)
        return R;
    ADD_FAILURE() << Name;
    return Tab.Rows.front();
  };
  EXPECT_EQ(RowOf("main").Kind, CallerKind::ThreadRoot);
  const SiteRow &F = RowOf("f");
  EXPECT_EQ(F.Kind, CallerKind::Outside);
  EXPECT_EQ(A.Functions[F.Enclosing].Name, "main");
  EXPECT_EQ(F.Caller, kNoFunc);
  const SiteRow &G = RowOf("g");
  EXPECT_EQ(G.Kind, CallerKind::Function);
  EXPECT_EQ(A.Functions[G.Caller].Name, "main");
  EXPECT_TRUE(Tab.Graph.Edges[G.Edges[0]].Unresolved);
  // Outside callers are no function's callees.
  for (uint32_t I : Tab.ByCaller[G.Caller])
    EXPECT_NE(Tab.Rows[I].Kind, CallerKind::Outside);
}

} // namespace
