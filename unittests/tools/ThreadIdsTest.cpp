//===- ThreadIdsTest.cpp - Naming threads of reused tids ------------------===//
//
// Part of ActiveTime. Threads with one tid numbered in start order, traces
// given to the thread whose life holds them, labels and --tid values.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/ThreadIds.h"

#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::profile;

namespace {

Thread thread(uint64_t Tid, uint64_t Start, uint64_t End) {
  Thread T;
  T.Tid = Tid;
  T.StartTick = Start;
  T.EndTick = End;
  return T;
}

Trace trace(uint64_t Tid, std::vector<uint64_t> Ticks) {
  Trace T;
  T.Tid = Tid;
  for (uint64_t Tick : Ticks)
    T.Events.push_back({Tick, 0, 0, 0});
  return T;
}

TEST(ThreadIds, ReusedTidsNumberedInStartOrder) {
  Process P;
  // Sections out of start order: the numbers follow the start ticks.
  P.Threads = {thread(5, 300, 400), thread(6, 0, 1000), thread(5, 100, 200),
               thread(5, 500, 600)};
  numberReusedTids(P);
  EXPECT_EQ(P.Threads[0].TidOrder, 2u);
  EXPECT_EQ(P.Threads[1].TidOrder, 0u); // tid 6 is its thread's alone
  EXPECT_EQ(P.Threads[2].TidOrder, 1u);
  EXPECT_EQ(P.Threads[3].TidOrder, 3u);
  EXPECT_EQ(threadLabel(P.Threads[0]), "5#2");
  EXPECT_EQ(threadLabel(P.Threads[1]), "6");
}

TEST(ThreadIds, AnyTidAFileHolds) {
  // ~0 and ~0 - 1 are a hash map's reserved keys; a file may hold them.
  Process P;
  P.Threads = {thread(~0ull, 300, 400), thread(~0ull - 1, 0, 1000),
               thread(~0ull, 100, 200), thread(~0ull - 1, 2000, 3000)};
  numberReusedTids(P);
  EXPECT_EQ(P.Threads[0].TidOrder, 2u);
  EXPECT_EQ(P.Threads[1].TidOrder, 1u);
  EXPECT_EQ(P.Threads[2].TidOrder, 1u);
  EXPECT_EQ(P.Threads[3].TidOrder, 2u);
}

TEST(ThreadIds, TraceGoesToTheThreadWhoseLifeHoldsIt) {
  Process P;
  P.Threads = {thread(5, 100, 200), thread(5, 300, 400)};
  // The second thread's trace first; one with a switch only; one with no
  // tick at all takes its place among the tid's traces (the third: last).
  P.Traces = {trace(5, {350, 390}), trace(5, {120})};
  Trace SwitchOnly;
  SwitchOnly.Tid = 5;
  SwitchOnly.Switches.push_back({310, 5, 0});
  P.Traces.push_back(SwitchOnly);
  P.Traces.push_back(trace(5, {}));
  numberReusedTids(P);
  EXPECT_EQ(P.Traces[0].TidOrder, 2u);
  EXPECT_EQ(P.Traces[1].TidOrder, 1u);
  EXPECT_EQ(P.Traces[2].TidOrder, 2u);
  EXPECT_EQ(P.Traces[3].TidOrder, 2u);
  EXPECT_TRUE(tracedBy(P.Traces[0], P.Threads[1]));
  EXPECT_FALSE(tracedBy(P.Traces[0], P.Threads[0]));
}

TEST(ThreadIds, Selectors) {
  llvm::Expected<ThreadSelector> A = parseThreadSelector("1234");
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(A->Tid, 1234u);
  EXPECT_EQ(A->Order, 0u);
  EXPECT_TRUE(A->matches(1234, 0));
  EXPECT_TRUE(A->matches(1234, 3));
  llvm::Expected<ThreadSelector> B = parseThreadSelector("1234#2");
  ASSERT_TRUE(bool(B));
  EXPECT_EQ(B->str(), "1234#2");
  EXPECT_TRUE(B->matches(1234, 2));
  EXPECT_FALSE(B->matches(1234, 1));
  EXPECT_FALSE(B->matches(1234, 0));
  for (const char *Bad : {"", "x", "12#", "12#0", "#2", "12#2#3", "-1"}) {
    llvm::Expected<ThreadSelector> S = parseThreadSelector(Bad);
    EXPECT_FALSE(bool(S)) << Bad;
    llvm::consumeError(S.takeError());
  }
}

} // namespace
