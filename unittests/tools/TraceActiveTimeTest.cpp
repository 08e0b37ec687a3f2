//===- TraceActiveTimeTest.cpp - Active time computed offline from a trace ===//
//
// Part of ActiveTime. The offline active-time computation (active = elapsed
// - probe overhead - switched-out time): the worked example and a call
// switched out twice reproduced exactly through the text parser, then each
// stage on its own: overlapping intervals, clipping, a missing switch-in,
// recursion counted once, nested portions, and the parser's errors.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/TraceActiveTime.h"
#include "activetime/raw_format.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::active;

namespace {

constexpr int64_t F = kFixed;

Interval iv(int64_t A, int64_t B) { return {A * F, B * F}; }

const char WorkedExample[] = R"(# active-time worked example
tick_rate 1000000000      # optional, ticks per second (default 1e9)
overhead enter 3          # overhead table: event cost in ticks
overhead exit 2
measure 900 T1 enter F    # time thread event portion
measure 1200 T1 enter G
measure 1500 T1 exit G
measure 1550 T1 exit F
switch 1000 T1 T2         # time old-thread new-thread (0 or - = unknown)
switch 1190 T2 T1
switch 1225 T1 T3
switch 1411 T3 T1
)";

Input parseOk(StringRef Text) {
  Expected<Input> In = parseTables(Text, "t.tables");
  EXPECT_TRUE(bool(In)) << toString(In.takeError());
  return In ? std::move(*In) : Input();
}

std::string parseErr(StringRef Text) {
  Expected<Input> In = parseTables(Text, "t.tables");
  if (In)
    return "<no error>";
  return toString(In.takeError());
}

TEST(ActiveTime, WorkedExampleStageByStage) {
  Input In = parseOk(WorkedExample);
  ASSERT_EQ(In.Threads.size(), 3u); // T1, T2, T3
  EXPECT_EQ(In.Table.Enter256, 3 * F);
  EXPECT_EQ(In.Table.Exit256, 2 * F);
  const ThreadInput &T1 = In.Threads[0];
  EXPECT_EQ(T1.Label, "T1");
  std::vector<Measurement> Ev = T1.Events;
  sortMeasurements(Ev);

  // Stage 1: the elapsed interval of F.
  InvocationList L = findInvocations(Ev, /*F=*/0);
  ASSERT_EQ(L.Invocations.size(), 1u);
  const Invocation &Inv = L.Invocations[0];
  EXPECT_EQ(Inv.Elapsed, iv(900, 1550));
  EXPECT_EQ(Inv.Elapsed.length(), 650 * F);

  // Stage 2: the overhead intervals, every measurement but the latest.
  std::vector<Interval> OH = overheadIntervals(Ev, Inv, In.Table);
  EXPECT_EQ(OH, (std::vector<Interval>{iv(900, 903), iv(1200, 1203),
                                      iv(1500, 1502)}));

  // Stage 3: the swap-out intervals of T1.
  std::vector<Interval> SW = swapOutIntervals(T1.Switches, T1.Id, Inv.Elapsed);
  EXPECT_EQ(SW, (std::vector<Interval>{iv(1000, 1190), iv(1225, 1411)}));

  // Stage 4: active = 650 - (3 + 3 + 2 + 190 + 186) = 266.
  ActiveFigures A = activeTime(Inv.Elapsed, OH, SW);
  EXPECT_EQ(A.Elapsed, 650 * F);
  EXPECT_EQ(A.Overhead, 8 * F);
  EXPECT_EQ(A.SwappedOut, 376 * F);
  EXPECT_EQ(A.Active, 266 * F);
  // Disjoint sets: the union's measure is the plain sum of its parts.
  EXPECT_EQ(A.Elapsed - A.Active, A.Overhead + A.SwappedOut);
}

TEST(ActiveTime, WorkedExampleAllPortions) {
  Input In = parseOk(WorkedExample);
  std::vector<PortionResult> R = computeActiveTime(In);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(In.Portions[R[0].Portion], "F");
  EXPECT_EQ(R[0].Total.Active, 266 * F);
  // G: elapsed (1200,1500) = 300; its own enter (3) and the swap-out
  // (1225,1411) = 186 removed: 111.
  EXPECT_EQ(In.Portions[R[1].Portion], "G");
  EXPECT_EQ(R[1].Invocations, 1u);
  EXPECT_EQ(R[1].Total.Elapsed, 300 * F);
  EXPECT_EQ(R[1].Total.Overhead, 3 * F);
  EXPECT_EQ(R[1].Total.SwappedOut, 186 * F);
  EXPECT_EQ(R[1].Total.Active, 111 * F);
  EXPECT_EQ(formatTicks(R[1].Total.Active), "111.00");
  EXPECT_DOUBLE_EQ(ticks256ToNs(R[0].Total.Active, In.TickRate), 266.0);
}

TEST(ActiveTime, SwitchedOutTwiceNoOverhead) {
  // 1 tick = 0.1 ms. Elapsed 0.5-9.0 ms, on the CPU 1.5-3 and 6-9 ms:
  // switched out 0.5-1.5 and 3-6 ms; no overhead. Active 4.5 ms.
  Input In = parseOk(R"(
tick_rate 10000
overhead enter 0
overhead exit 0
measure 5 T enter P
switch 5 T -
switch 15 - T
switch 30 T 0
switch 60 0 T
measure 90 T exit P
)");
  std::vector<PortionResult> R = computeActiveTime(In);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Total.Elapsed, 85 * F);
  EXPECT_EQ(R[0].Total.SwappedOut, 40 * F);
  EXPECT_EQ(R[0].Total.Active, 45 * F);
  EXPECT_DOUBLE_EQ(ticks256ToNs(R[0].Total.Active, In.TickRate), 4.5e6);
  EXPECT_TRUE(R[0].Details[0].OverheadSet.empty());
}

TEST(ActiveTime, OverlappingIntervals) {
  EXPECT_EQ(unionMeasure({}), 0);
  EXPECT_EQ(unionMeasure({iv(0, 10), iv(5, 15), iv(20, 25)}), 20 * F);
  EXPECT_EQ(unionMeasure({iv(20, 25), iv(0, 10), iv(10, 12)}), 17 * F);
  EXPECT_EQ(unionMeasure({iv(0, 30), iv(5, 10)}), 30 * F);
  // An overhead interval overlapping a swap-out interval is still removed
  // in full: the probe's work was done on the processor, only later (and
  // the online accounting of the runtime does the same).
  ActiveFigures A = activeTime(iv(0, 100), {iv(10, 13), iv(50, 53)},
                               {iv(40, 60)});
  EXPECT_EQ(A.Overhead, 6 * F);
  EXPECT_EQ(A.SwappedOut, 20 * F);
  EXPECT_EQ(A.Active, 74 * F); // 100 - (6 + 20)
  // Swap-out intervals are clipped to the elapsed interval.
  ActiveFigures B = activeTime(iv(0, 100), {}, {iv(90, 120)});
  EXPECT_EQ(B.SwappedOut, 10 * F);
  EXPECT_EQ(B.Active, 90 * F);
  // A probe that measured itself: its overhead interval is its measured
  // wall-clock part [10, 40) plus the table's 2 ticks. The thread was
  // switched out for [20, 30) inside it: those 10 ticks count once, as
  // switched out; the table's part stays in full. A measured part with no
  // switch-out in it ([60, 64)) stays in full too.
  ActiveFigures C = activeTime(iv(0, 100), {iv(10, 42), iv(60, 66)},
                               {iv(20, 30)}, {iv(10, 40), iv(60, 64)});
  EXPECT_EQ(C.SwappedOut, 10 * F);
  EXPECT_EQ(C.Overhead, (32 - 10 + 6) * F);
  EXPECT_EQ(C.Active, (100 - 28 - 10) * F);
}

TEST(ActiveTime, MeasuredIntervalsOfAnInvocation) {
  // enter F at 10 (measured 5), enter G at 20 (measured 0: fed its tick),
  // exit G at 30 (measured 4), exit F at 40 (its own exit is not F's).
  std::vector<Measurement> Ev = {{10, 0, Enter, 5}, {20, 1, Enter, 0},
                                 {30, 1, Exit, 4}, {40, 0, Exit, 7}};
  InvocationList L = findInvocations(Ev, 0);
  ASSERT_EQ(L.Invocations.size(), 1u);
  EXPECT_EQ(measuredIntervals(Ev, L.Invocations[0]),
            (std::vector<Interval>{iv(10, 15), iv(30, 34)}));
  Overhead T;
  T.Enter256 = 2 * F;
  T.Exit256 = 1 * F;
  EXPECT_EQ(overheadIntervals(Ev, L.Invocations[0], T),
            (std::vector<Interval>{iv(10, 17), iv(20, 22), iv(30, 35)}));
}

TEST(ActiveTime, SwapOutClippingAndMissingSwitchIn) {
  std::vector<Switch> S = {{5, 1, 2},   // out before the interval
                           {15, 2, 1},  // in inside it
                           {30, 1, 0},  // out
                           {40, 0, 1},  // in
                           {90, 1, 2}}; // out, never back
  EXPECT_EQ(swapOutPairs(S, 1),
            (std::vector<Interval>{iv(5, 15), iv(30, 40),
                                   {90 * F, INT64_MAX}}));
  EXPECT_EQ(swapOutIntervals(S, 1, iv(10, 100)),
            (std::vector<Interval>{iv(10, 15), iv(30, 40), iv(90, 100)}));
  // Entirely outside: nothing.
  EXPECT_TRUE(swapOutIntervals(S, 1, iv(50, 80)).empty());
  // A switch-in without a switch-out is ignored; another thread's
  // switches are not this thread's.
  EXPECT_TRUE(swapOutPairs({{5, 2, 1}, {7, 2, 3}}, 1).empty());
  // Overhead intervals are not clipped at the elapsed interval's end: the
  // cost is work done inside the invocation. The last measurement has none.
  std::vector<Measurement> Ev = {{0, 0, Enter}, {9, 1, Exit}, {10, 0, Exit}};
  Overhead T{4 * F, 4 * F};
  InvocationList L = findInvocations(Ev, 0);
  ASSERT_EQ(L.Invocations.size(), 1u);
  EXPECT_EQ(overheadIntervals(Ev, L.Invocations[0], T),
            (std::vector<Interval>{iv(0, 4), iv(9, 13)}));
}

TEST(ActiveTime, RecursionCountedOnce) {
  Input In = parseOk(R"(
overhead enter 1
overhead exit 1
measure 0 A enter R
measure 10 A enter R
measure 20 A exit R
measure 30 A exit R
measure 40 A enter R
measure 50 A exit R
measure 60 A exit R
)");
  std::vector<PortionResult> R = computeActiveTime(In);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Invocations, 3u);
  EXPECT_EQ(R[0].Outermost, 2u);
  EXPECT_EQ(R[0].UnmatchedExits, 1u);
  ASSERT_EQ(R[0].Details.size(), 3u);
  EXPECT_TRUE(R[0].Details[0].Inv.Outermost);
  EXPECT_FALSE(R[0].Details[1].Inv.Outermost);
  EXPECT_EQ(R[0].Details[1].Inv.Elapsed, iv(10, 20));
  // Outer (0,30): overhead at 0, 10, 20 = 3; (40,50): at 40 = 1.
  EXPECT_EQ(R[0].Total.Elapsed, 40 * F);
  EXPECT_EQ(R[0].Total.Overhead, 4 * F);
  EXPECT_EQ(R[0].Total.Active, 36 * F);
}

TEST(ActiveTime, NestedPortionAndFractionalOverhead) {
  Input In = parseOk(R"(
overhead enter 0.5
overhead exit 1.25
measure 100 T enter outer
measure 110 T enter inner
measure 120 T exit inner
measure 200 T exit outer
measure 300 U enter inner
measure 301 U exit inner
)");
  EXPECT_EQ(In.Table.Enter256, F / 2);
  EXPECT_EQ(In.Table.Exit256, F + F / 4);
  std::vector<PortionResult> R = computeActiveTime(In);
  ASSERT_EQ(R.size(), 3u);
  // outer: its enter, inner's enter and exit: 0.5 + 0.5 + 1.25.
  EXPECT_EQ(R[0].Total.Overhead, 2 * F + F / 4);
  EXPECT_EQ(formatTicks(R[0].Total.Active), "97.75");
  EXPECT_EQ(R[1].Total.Active, 10 * F - F / 2);
  // Thread filter and portion filter.
  EXPECT_EQ(computeActiveTime(In, -1, 1).size(), 1u);
  EXPECT_EQ(computeActiveTime(In, 1).size(), 2u);
}

TEST(ActiveTime, ParserErrors) {
  EXPECT_EQ(parseErr("overhead enter 1\noverhead exit 1\nmeasure x T1 enter F\n"),
            "t.tables:3: bad time 'x' (expected a non-negative integer number "
            "of ticks)");
  EXPECT_EQ(parseErr("overhead enter 1\n\nmeasure 1 T1 entr F\n"),
            "t.tables:3: unknown event 'entr' (expected enter or exit)");
  EXPECT_EQ(parseErr("bogus 1\n"),
            "t.tables:1: unknown line 'bogus' (expected tick_rate, overhead, "
            "measure or switch)");
  EXPECT_EQ(parseErr("measure 1 T1 enter\n"),
            "t.tables:1: expected 'measure TIME THREAD enter|exit PORTION'");
  EXPECT_EQ(parseErr("switch 1 - 0\n"),
            "t.tables:1: a switch needs at least one known thread");
  EXPECT_EQ(parseErr("tick_rate 0\n"),
            "t.tables:1: bad tick rate '0' (expected a positive integer)");
  EXPECT_EQ(parseErr("overhead enter -1\n"),
            "t.tables:1: bad overhead '-1' (expected a non-negative number of "
            "ticks)");
  EXPECT_EQ(parseErr("overhead enter 1\noverhead enter 2\n"),
            "t.tables:2: overhead enter given twice");
  EXPECT_EQ(parseErr("overhead enter 1\nmeasure 1 T enter F\n"),
            "t.tables: no 'overhead exit TICKS' line (the overhead table is "
            "required; write 0 for no overhead)");
  EXPECT_EQ(parseErr("overhead enter 1\noverhead exit 1\n"),
            "t.tables: no measurements");
}

TEST(ActiveTime, FromProfileTraces) {
  profile::Profile P;
  profile::Process Pr;
  Pr.TickRate = 1000;
  Pr.Pid = 9;
  Pr.Overhead.Enter256 = 3 * F;
  Pr.Overhead.Exit256 = 2 * F;
  Pr.Modules.push_back({1, 0, 0, "m.c", "/bin/x"});
  Pr.Functions.push_back({0, 0, 1, 0, "_Z1Fv", ""});
  Pr.Functions.push_back({0, 0, 2, 0, "_Z1Gv", ""});
  profile::Thread T;
  T.Tid = 5;
  T.SwitchSource = raw::SS_Perf;
  Pr.Threads.push_back(T);
  T.Tid = 6;
  T.SwitchSource = raw::SS_CpuClock;
  Pr.Threads.push_back(T);
  profile::Trace X;
  X.Tid = 5;
  X.Events = {{900, 0, raw::TE_Enter}, {1200, 1, raw::TE_Enter},
              {1500, 1, raw::TE_Exit}, {1550, 0, raw::TE_Exit}};
  X.Switches = {{1000, 5, 0}, {1190, 0, 5}, {1225, 5, 0}, {1411, 0, 5}};
  Pr.Traces.push_back(X);
  X.Tid = 6; // fell back: its switched-out time is unknown
  X.Switches.clear();
  Pr.Traces.push_back(X);
  P.Processes.push_back(Pr);
  std::vector<Input> In = inputsFromProfile(P);
  ASSERT_EQ(In.size(), 1u);
  EXPECT_EQ(In[0].DisplayNames[0], "F()");
  std::vector<PortionResult> R = computeActiveTime(In[0]);
  ASSERT_EQ(R.size(), 4u);
  EXPECT_EQ(R[0].Total.Active, 266 * F);
  EXPECT_TRUE(R[0].SwitchesMeasured);
  EXPECT_FALSE(R[2].SwitchesMeasured);
  EXPECT_EQ(R[2].Total.Active, 642 * F);
}

/// The stage functions run per invocation: the definition the one-sweep
/// computation must reproduce.
std::vector<ActiveFigures> byStages(const Input &In, const ThreadInput &T,
                                    uint32_t Portion) {
  std::vector<Measurement> Ev = T.Events;
  sortMeasurements(Ev);
  std::vector<Switch> Sw = T.Switches;
  // Stable: switches at one tick keep their recorded order.
  std::stable_sort(Sw.begin(), Sw.end(), [](const Switch &A, const Switch &B) {
    return A.Tick < B.Tick;
  });
  std::vector<ActiveFigures> Out;
  for (const Invocation &Inv : findInvocations(Ev, Portion).Invocations)
    Out.push_back(activeTime(Inv.Elapsed, overheadIntervals(Ev, Inv, In.Table),
                             swapOutIntervals(Sw, T.Id, Inv.Elapsed),
                             measuredIntervals(Ev, Inv)));
  return Out;
}

/// Random nested calls of 3 portions (recursion included), probes that
/// measured themselves and switches inside and across them: every
/// invocation's figures equal the stage functions'. With \p Overlapping,
/// some measured intervals reach past the next probe's tick (never written
/// by the runtime): the sweep falls back to the stages for that thread.
void sweepAgreesWithStages(bool Overlapping) {
  uint64_t Seed = 12345;
  auto Rand = [&](uint64_t N) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return (Seed >> 33) % N;
  };
  for (int Round = 0; Round < 50; ++Round) {
    Input In;
    In.Portions = In.DisplayNames = {"a", "b", "c"};
    In.Table = {int64_t(Rand(3) * F + Rand(F)), int64_t(Rand(3) * F)};
    ThreadInput T;
    T.Id = 1;
    std::vector<uint32_t> Open;
    uint64_t Tick = 100, MeasuredEnd = 0;
    bool Out = false;
    for (int Step = 0; Step < 400; ++Step) {
      bool IsEnter = Open.empty() || (Open.size() < 40 && Rand(2));
      uint32_t P = IsEnter ? uint32_t(Rand(3)) : Open.back();
      uint32_t Measured = Rand(2) ? uint32_t(Rand(6)) : 0;
      // Small steps: a measured part reaches past the probes after it that
      // have none (exits included); disjoint from the next measured one
      // unless Overlapping.
      if (Measured && !Overlapping)
        Tick = std::max(Tick, MeasuredEnd);
      T.Events.push_back({Tick, P, IsEnter ? Enter : Exit, Measured});
      if (Measured)
        MeasuredEnd = Tick + Measured;
      if (IsEnter)
        Open.push_back(P);
      else
        Open.pop_back();
      Tick += Rand(4);
      // Switch events, some at a probe's tick, some inside a measured part.
      while (Rand(3) == 0) {
        uint64_t At = Tick - Rand(std::min<uint64_t>(Tick, 4));
        if (!T.Switches.empty())
          At = std::max(At, T.Switches.back().Tick);
        T.Switches.push_back(Out ? Switch{At, 0, 1} : Switch{At, 1, 0});
        Out = !Out;
      }
    }
    In.Threads.push_back(T);
    for (ResultDetail D : {ResultDetail::Invocations, ResultDetail::Totals}) {
      std::vector<PortionResult> R = computeActiveTime(In, -1, -1, D);
      for (const PortionResult &PR : R) {
        std::vector<ActiveFigures> Want = byStages(In, T, PR.Portion);
        EXPECT_EQ(PR.Invocations, Want.size());
        EXPECT_GT(PR.Invocations, 0u);
        if (D == ResultDetail::Totals) {
          EXPECT_TRUE(PR.Details.empty());
          continue;
        }
        ASSERT_EQ(PR.Details.size(), Want.size());
        for (size_t I = 0; I < Want.size(); ++I) {
          const ActiveFigures &Got = PR.Details[I].Figures;
          EXPECT_EQ(Got.Overhead, Want[I].Overhead) << Round << " " << I;
          EXPECT_EQ(Got.SwappedOut, Want[I].SwappedOut) << Round << " " << I;
          EXPECT_EQ(Got.Active, Want[I].Active) << Round << " " << I;
          EXPECT_TRUE(PR.Details[I].OverheadSet.empty());
        }
      }
    }
  }
}

TEST(ActiveTime, SweepAgreesWithStages) { sweepAgreesWithStages(false); }
TEST(ActiveTime, SweepAgreesWithStagesOverlapping) {
  sweepAgreesWithStages(true);
}

TEST(ActiveTime, IntervalSetsOnRequest) {
  Input In = parseOk(WorkedExample);
  std::vector<PortionResult> R =
      computeActiveTime(In, 0, -1, ResultDetail::Intervals);
  ASSERT_EQ(R.size(), 1u);
  ASSERT_EQ(R[0].Details.size(), 1u);
  EXPECT_EQ(R[0].Details[0].OverheadSet,
            (std::vector<Interval>{iv(900, 903), iv(1200, 1203),
                                   iv(1500, 1502)}));
  EXPECT_EQ(R[0].Details[0].SwapOutSet,
            (std::vector<Interval>{iv(1000, 1190), iv(1225, 1411)}));
  // 3 overhead intervals, 2 swap-out pairs: what --intervals prints.
  EXPECT_EQ(R[0].IntervalCount, 5u);
}

} // namespace
