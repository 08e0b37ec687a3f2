//===- SamplesTest.cpp - Sample attribution tests ---------------------------===//
//
// Part of ActiveTime. Sample attribution through the real code: on-CPU
// samples charge their own frame, off-CPU samples the frame the thread left
// the CPU in (or, flagged, its prior on-CPU sample's frame); self, total
// (once per sample under recursion), per path and grand totals.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/Samples.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

using namespace activetime;
using namespace activetime::profile;

namespace {

Profile makeSampled() {
  Profile P;
  Process Pr;
  Pr.TickRate = 500000000; // 2 ns per tick
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

TEST(Samples, OnAndOffCpuAttribution) {
  SampleSummary S = summarizeSamples(makeSampled());
  EXPECT_EQ(S.Processes, 1u);
  EXPECT_DOUBLE_EQ(S.IntervalNs, 100);
  EXPECT_TRUE(S.Randomized);

  const SampleFigures &A = S.Self.at("A");
  EXPECT_DOUBLE_EQ(A.OnNs, 610);  // (300 + 5) ticks * 2 ns
  EXPECT_DOUBLE_EQ(A.OffNs, 50);  // the prior-frame sample
  EXPECT_EQ(A.OnSamples, 2u);
  EXPECT_EQ(A.OffSamples, 1u);
  EXPECT_EQ(A.PriorFrame, 1u);

  const SampleFigures &B = S.Self.at("B");
  EXPECT_DOUBLE_EQ(B.OnNs, 0);
  EXPECT_DOUBLE_EQ(B.OffNs, 300);
  EXPECT_EQ(B.OffSamples, 1u);
  EXPECT_EQ(B.PriorFrame, 0u);

  const SampleFigures &Out = S.Self.at(kOutsideFrame);
  EXPECT_DOUBLE_EQ(Out.OffNs, 40);
  EXPECT_EQ(Out.Preempted, 1u);
  EXPECT_EQ(S.Self.count("main"), 0u); // never the charged frame

  // Total: A once per sample even on main>A>A.
  const SampleFigures &TA = S.Total.at("A");
  EXPECT_EQ(TA.OnSamples, 2u);
  EXPECT_DOUBLE_EQ(TA.OnNs, 610);
  const SampleFigures &TM = S.Total.at("main");
  EXPECT_DOUBLE_EQ(TM.OnNs, 610);
  EXPECT_DOUBLE_EQ(TM.OffNs, 350);
  EXPECT_EQ(TM.samples(), 4u);

  std::vector<std::string> AA = {"main", "A", "A"};
  EXPECT_DOUBLE_EQ(S.Paths.at(AA).OnNs, 10);
  EXPECT_EQ(S.Paths.size(), 4u);

  EXPECT_DOUBLE_EQ(S.All.OnNs, 610);
  EXPECT_DOUBLE_EQ(S.All.OffNs, 390);
  EXPECT_EQ(S.All.samples(), 5u);
  EXPECT_EQ(S.All.PriorFrame, 1u);
}

TEST(Samples, PathOfNode) {
  Profile P = makeSampled();
  const Process &Pr = P.Processes[0];
  EXPECT_EQ(samplePath(Pr, Pr.Threads[0], 3),
            (std::vector<std::string>{"main", "A", "A"}));
  EXPECT_EQ(samplePath(Pr, Pr.Threads[0], raw::kNoNode),
            (std::vector<std::string>{kOutsideFrame}));
}

TEST(Samples, ProcessesWithoutSamplesContributeNothing) {
  Profile P = makeSampled();
  P.Processes.push_back(P.Processes[0]);
  P.Processes[1].HasSamples = false;
  SampleSummary S = summarizeSamples(P);
  EXPECT_EQ(S.Processes, 1u);
  EXPECT_EQ(S.All.samples(), 5u);
}

} // namespace
