//===- WindowTest.cpp - A profile between two writes ---------------------===//
//
// Part of ActiveTime. subtractEarlier: the earlier snapshot's nodes found in
// the later tree by calling context, whatever their indices; code samples
// and call counts subtracted too; a call open across the write counts in
// the window; a snapshot that is not earlier leaves the later one as it was.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Window.h"

#include "ProfileTestUtil.h"

#include "gtest/gtest.h"

using llvm::Expected;
using namespace activetime;
using namespace activetime::profile;

namespace {

constexpr uint32_t Root = kNoParent;

Process snapshot(uint64_t EndTick, std::vector<Node> Nodes) {
  Process P;
  P.TickRate = 1000000000;
  P.EndTick = EndTick;
  P.StartUnixNs = 5000000000;
  P.Pid = 7;
  P.Host = "h";
  P.Exe = "/bin/s";
  P.Functions.push_back({0, 0x1000, 1, 0, "main", "s.c"});
  P.Functions.push_back({0, 0x1100, 2, 0, "a", "s.c"});
  P.Functions.push_back({0, 0x1200, 3, 0, "b", "s.c"});
  P.Threads.push_back(testutil::makeThread(7, std::move(Nodes)));
  P.Threads[0].EndTick = EndTick;
  return P;
}

Profile one(Process P) {
  Profile Out;
  Out.Processes.push_back(std::move(P));
  return Out;
}

TEST(Window, SubtractsByCallingContext) {
  // Earlier: main -> a. Later: main -> b (new), main -> a.
  Profile E = one(snapshot(1000, {{Root, 0, 1, 1000, 600, 1000, 1000},
                                  {0, 1, 4, 400, 400, 100, 100}}));
  Profile L = one(snapshot(3000, {{Root, 0, 1, 3000, 1500, 3000, 3000},
                                  {0, 2, 2, 500, 500, 250, 250},
                                  {0, 1, 9, 1000, 1000, 100, 120}}));
  E.Processes[0].Threads[0].Counts.push_back({2, true, 10});
  L.Processes[0].Threads[0].Counts.push_back({2, true, 25});
  E.Processes[0].Threads[0].CodeSamples.push_back({1, 0, 0x1110, 3, 0});
  L.Processes[0].Threads[0].CodeSamples.push_back({2, 0, 0x1110, 8, 0});
  Expected<WindowSummary> S = subtractEarlier(L, E);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  EXPECT_EQ(S->Processes, 1u);
  EXPECT_DOUBLE_EQ(S->WindowNs, 2000);
  const Process &P = L.Processes[0];
  EXPECT_EQ(P.StartTick, 1000u);
  EXPECT_EQ(P.StartUnixNs, 5000001000u);
  const Thread &T = P.Threads[0];
  EXPECT_EQ(T.StartTick, 1000u);
  // main's call, open at both writes: 2000 ticks more, one call.
  EXPECT_EQ(T.Nodes[0].Calls, 1u);
  EXPECT_EQ(T.Nodes[0].Incl, 2000u);
  EXPECT_EQ(T.Nodes[0].Excl, 900u);
  // b is new: whole. a (index 1 before, 2 now): 5 calls, 600 ticks.
  EXPECT_EQ(T.Nodes[1].Calls, 2u);
  EXPECT_EQ(T.Nodes[1].Incl, 500u);
  EXPECT_EQ(T.Nodes[2].Calls, 5u);
  EXPECT_EQ(T.Nodes[2].Incl, 600u);
  ASSERT_EQ(T.Counts.size(), 1u);
  EXPECT_EQ(T.Counts[0].Calls, 15u);
  ASSERT_EQ(T.CodeSamples.size(), 1u);
  EXPECT_EQ(T.CodeSamples[0].Node, 2u);
  EXPECT_EQ(T.CodeSamples[0].Count, 5u);
}

TEST(Window, NotEarlierLeavesTheLaterAsItWas) {
  Profile E = one(snapshot(1000, {{Root, 0, 1, 1000, 600, 1000, 1000},
                                  {0, 1, 4, 400, 400, 100, 100}}));
  // a has fewer calls than before.
  Profile L = one(snapshot(3000, {{Root, 0, 1, 3000, 2700, 3000, 3000},
                                  {0, 1, 3, 300, 300, 100, 100}}));
  Profile Copy = L;
  Expected<WindowSummary> S = subtractEarlier(L, E);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(toString(S.takeError()).find("a has fewer calls or less time"),
            std::string::npos);
  EXPECT_EQ(L.Processes[0].StartTick, Copy.Processes[0].StartTick);
  EXPECT_EQ(L.Processes[0].Threads[0].Nodes[0].Incl, 3000u);
  EXPECT_EQ(L.Processes[0].Threads[0].Nodes[1].Calls, 3u);
  // Another host's process of the same pid is another run.
  Profile Other = E;
  Other.Processes[0].Host = "g";
  Expected<WindowSummary> O = subtractEarlier(L, Other);
  ASSERT_FALSE(bool(O));
  EXPECT_NE(toString(O.takeError()).find("no process of the earlier profile"),
            std::string::npos);
}

} // namespace
