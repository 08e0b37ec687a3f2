//===- FilterTest.cpp - Profile filter tests
//--------------------------------===//
//
// Part of ActiveTime. The filters as a Profile -> Profile transformation:
// what each keeps (exact figures by hand), that the result passes the
// reader's checks (written and read back), that node references follow the
// kept nodes, that errors leave the profile untouched, and that very deep
// trees are filtered without recursion.
//
//===----------------------------------------------------------------------===//

#include "ProfileTestUtil.h"

#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/Filter.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = raw::kNoParent;

Process makeProcess(std::vector<std::string> Names) {
  Process P;
  P.TickRate = 1000000000;
  P.EndTick = 1000000000;
  P.Exe = "/bin/app";
  P.Modules.push_back({1, 0, 0, "m.c", "/bin/app"});
  for (std::string &N : Names)
    P.Functions.push_back({0, 0, 1, 0, N, "m.c"});
  return P;
}

using testutil::makeThread;

/// main(0) -> a(1) -> b(2); main -> b; b -> a(3 calls).
Profile smallProfile() {
  Process P = makeProcess({"main", "a", "b", "_Z1cv"});
  P.Threads.push_back(makeThread(7, {{Root, 0, 1, 1000, 100, 1000, 1000},
                                     {0, 1, 2, 600, 200, 250, 350},
                                     {1, 2, 4, 400, 400, 50, 150},
                                     {0, 2, 1, 300, 200, 300, 300},
                                     {3, 1, 3, 100, 100, 20, 40}}));
  Profile Prof;
  Prof.Processes.push_back(std::move(P));
  return Prof;
}

/// The profile survives the writer and the reader's checks.
void expectValid(const Profile &P) {
  std::string Bytes = testutil::serialize(P);
  llvm::Expected<Profile> Back = testutil::parse(Bytes);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
}

FilterSummary apply(Profile &P, const FilterSpec &S) {
  llvm::Expected<FilterSummary> Sum = applyFilters(P, S);
  EXPECT_TRUE(bool(Sum));
  if (!Sum) {
    llvm::consumeError(Sum.takeError());
    return {};
  }
  return *Sum;
}

TEST(Filter, FocusMakesEachCallARoot) {
  Profile P = smallProfile();
  FilterSpec S;
  S.Focus = {"b"};
  FilterSummary Sum = apply(P, S);
  const auto &N = P.Processes[0].Threads[0].Nodes;
  ASSERT_EQ(N.size(), 3u); // b under a, b under main, a under that b
  EXPECT_EQ(N[0].Parent, Root);
  EXPECT_EQ(N[0].Func, 2u);
  EXPECT_EQ(N[1].Parent, Root);
  EXPECT_EQ(N[1].Func, 2u);
  EXPECT_EQ(N[2].Parent, 1u);
  EXPECT_EQ(N[2].Func, 1u);
  EXPECT_EQ(Sum.RootActiveBeforeNs, 1000);
  EXPECT_EQ(Sum.RootActiveAfterNs, 700);
  expectValid(P);
}

TEST(Filter, IgnoreRemovesTheTimeFromTheCallers) {
  Profile P = smallProfile();
  FilterSpec S;
  S.Ignore = {"a"};
  FilterSummary Sum = apply(P, S);
  const auto &N = P.Processes[0].Threads[0].Nodes;
  ASSERT_EQ(N.size(), 2u);    // main, b under main
  EXPECT_EQ(N[0].Incl, 300u); // lost a's 600 and b -> a's 100
  EXPECT_EQ(N[0].Excl, 100u); // its own code: unchanged
  EXPECT_EQ(N[0].Min, 300u);  // one call: exact
  EXPECT_EQ(N[0].Max, 300u);
  EXPECT_EQ(N[1].Incl, 200u);
  EXPECT_EQ(N[1].Max, 200u); // clamped to what the call kept
  EXPECT_EQ(Sum.IgnoredCalls, 5u);
  EXPECT_EQ(Sum.IgnoredActiveNs, 700);
  Aggregate A = aggregate(P);
  EXPECT_EQ(A.TotalSelfActive, 300); // main 100 + b 200
  expectValid(P);
}

TEST(Filter, DemangledNamesAndGlobs) {
  Profile P = smallProfile();
  P.Processes[0].Threads[0].Nodes.push_back({0, 3, 1, 10, 10, 10, 10});
  FilterSpec S;
  S.Focus = {"c()"};
  apply(P, S);
  ASSERT_EQ(P.Processes[0].Threads[0].Nodes.size(), 1u);
  Profile Q = smallProfile();
  FilterSpec G;
  G.Ignore = {"[ab]"};
  apply(Q, G);
  EXPECT_EQ(Q.Processes[0].Threads[0].Nodes.size(), 1u);
}

TEST(Filter, ErrorsLeaveTheProfileUntouched) {
  for (int Case = 0; Case < 4; ++Case) {
    Profile P = smallProfile();
    FilterSpec S;
    S.Tids = {7};
    S.Ignore = {"a"};
    if (Case == 0)
      S.Focus = {"nothing"};
    if (Case == 1)
      S.Tids.push_back(99);
    if (Case == 2)
      S.FromNs = 1; // no traces
    if (Case == 3)
      S.Ignore.push_back("x[");
    llvm::Expected<FilterSummary> Sum = applyFilters(P, S);
    ASSERT_FALSE(bool(Sum)) << Case;
    llvm::consumeError(Sum.takeError());
    EXPECT_EQ(P.Processes[0].Threads[0].Nodes.size(), 5u);
  }
}

TEST(Filter, ReferencesFollowTheKeptNodesAndThreads) {
  Profile Prof = smallProfile();
  Process &P = Prof.Processes[0];
  P.Threads.push_back(makeThread(8, {{Root, 2, 1, 50, 50, 50, 50}}));
  Thread &T = P.Threads[0];
  T.CodeSamples = {{4, 0, 0, 3}, {1, 0, 0, 2}, {raw::kNoNode, 0, 0, 1}};
  // Two calls of b were only counted (6 timed).
  T.Counts = {{0, false, 1}, {1, false, 5}, {2, true, 7}};
  P.HasSamples = true;
  P.Samples.IntervalTicks = 10;
  P.Samples.Samples = {{10, 1, 0, 4, 0, 3},
                       {20, 1, 0, 1, 0, 2},
                       {30, 1, 1, 0, 0, 1},
                       {40, 1, 0, raw::kNoNode, 0, 0}};
  FilterSpec S;
  S.Tids = {7};
  S.Focus = {"b"};
  FilterSummary Sum = apply(Prof, S);
  ASSERT_EQ(P.Threads.size(), 1u);
  const Thread &K = P.Threads[0]; // the kept threads are a new vector
  // Node 4 (a under b under main) is node 2 now; node 1 (a) is gone.
  ASSERT_EQ(K.CodeSamples.size(), 1u);
  EXPECT_EQ(K.CodeSamples[0].Node, 2u);
  ASSERT_EQ(P.Samples.Samples.size(), 1u);
  EXPECT_EQ(P.Samples.Samples[0].Node, 2u);
  EXPECT_EQ(P.Samples.Samples[0].Thread, 0u);
  // a: 3 timed calls kept; b: 5 timed + 2 counted kept whole.
  ASSERT_EQ(K.Counts.size(), 2u);
  EXPECT_EQ(K.Counts[0].Func, 1u);
  EXPECT_EQ(K.Counts[0].Calls, 3u);
  EXPECT_EQ(K.Counts[1].Calls, 7u);
  EXPECT_EQ(Sum.CountedCallsKeptWhole, 2u);
  EXPECT_EQ(Sum.ThreadsDropped, 1u);
  expectValid(Prof);
}

TEST(Filter, TraceClippedToTheRange) {
  Profile Prof = smallProfile();
  Process &P = Prof.Processes[0];
  Trace Tr;
  Tr.Tid = 7;
  Tr.Events = {{100, 0, raw::TE_Enter, 0}, {200, 1, raw::TE_Enter, 0},
               {300, 1, raw::TE_Exit, 0},  {400, 2, raw::TE_Enter, 0},
               {500, 2, raw::TE_Exit, 0},  {600, 0, raw::TE_Exit, 0}};
  Tr.Switches = {{150, 7, 0}, {250, 0, 7}, {550, 7, 0}};
  P.Traces.push_back(Tr);
  FilterSpec S;
  S.FromNs = 250;
  S.ToNs = 450;
  FilterSummary Sum = apply(Prof, S);
  const auto &E = P.Traces[0].Events;
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> Got;
  for (const TraceEvent &X : E)
    Got.emplace_back(X.Tick, X.Func, X.Kind);
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> Want = {
      {250, 0, raw::TE_Enter}, {250, 1, raw::TE_Enter}, {300, 1, raw::TE_Exit},
      {400, 2, raw::TE_Enter}, {450, 2, raw::TE_Exit},  {450, 0, raw::TE_Exit}};
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(Sum.CallsClipped, 4u);
  EXPECT_EQ(Sum.EventsDropped, 4u); // at 100, 200, 500 and 600
  ASSERT_EQ(P.Traces[0].Switches.size(), 1u);
  EXPECT_EQ(P.Traces[0].Switches[0].Tick, 250u);
  expectValid(Prof);
}

/// A chain of 300000 calls cycling through three functions: deep enough
/// that recursion in the filter would overflow the stack.
TEST(Filter, DeepChainIsFilteredIteratively) {
  constexpr uint32_t Depth = 300000;
  Process P = makeProcess({"f0", "f1", "f2", "g"});
  std::vector<Node> Nodes;
  for (uint32_t I = 0; I < Depth; ++I) {
    uint64_t Incl = uint64_t(Depth - I) * 10;
    Nodes.push_back({I ? I - 1 : Root, I % 3, 1, Incl, 10, Incl, Incl});
  }
  P.Threads.push_back(makeThread(1, std::move(Nodes)));
  Profile Prof;
  Prof.Processes.push_back(std::move(P));
  Profile Focused = Prof;
  FilterSpec F;
  F.Focus = {"f1"};
  apply(Focused, F);
  const auto &N = Focused.Processes[0].Threads[0].Nodes;
  ASSERT_EQ(N.size(), Depth - 1);
  EXPECT_EQ(N[0].Parent, Root);
  for (uint32_t I = 1; I < N.size(); ++I)
    ASSERT_EQ(N[I].Parent, I - 1);
  expectValid(Focused);
  FilterSpec G;
  G.Ignore = {"f2"};
  FilterSummary Sum = apply(Prof, G);
  ASSERT_EQ(Prof.Processes[0].Threads[0].Nodes.size(), 2u);
  EXPECT_EQ(Prof.Processes[0].Threads[0].Nodes[0].Incl, 20u);
  EXPECT_EQ(Sum.IgnoredCalls, 1u);
  expectValid(Prof);
}

TEST(Filter, TimeUnits) {
  auto Ns = [](llvm::StringRef S) -> int64_t {
    llvm::Expected<uint64_t> V = parseTimeSinceStart(S);
    if (!V) {
      llvm::consumeError(V.takeError());
      return -1;
    }
    return int64_t(*V);
  };
  EXPECT_EQ(Ns("1.5"), 1500000000);
  EXPECT_EQ(Ns("2s"), 2000000000);
  EXPECT_EQ(Ns("3ms"), 3000000);
  EXPECT_EQ(Ns("4us"), 4000);
  EXPECT_EQ(Ns("5ns"), 5);
  EXPECT_EQ(Ns("-1"), -1);
  EXPECT_EQ(Ns("x"), -1);
  EXPECT_EQ(Ns("1h"), -1);
}

} // namespace
