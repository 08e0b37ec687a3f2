//===- TraceActiveTime.cpp - Active time of a trace ------------------------===//
//
// Part of ActiveTime. See activetime/Profile/TraceActiveTime.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/TraceActiveTime.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <optional>

using namespace llvm;
using namespace activetime;
using namespace activetime::active;

static int64_t fixed(uint64_t Tick) { return int64_t(Tick) * kFixed; }

/// Stable sort by Tick (std::stable_sort's temporary buffer is deprecated
/// in this libstdc++; the recorded position breaks ties instead).
template <typename T> static void sortByTick(std::vector<T> &V) {
  std::vector<std::pair<uint64_t, size_t>> Keys(V.size());
  for (size_t I = 0; I < V.size(); ++I)
    Keys[I] = {V[I].Tick, I};
  llvm::sort(Keys);
  std::vector<T> Out;
  Out.reserve(V.size());
  for (const auto &K : Keys)
    Out.push_back(V[K.second]);
  V = std::move(Out);
}

void active::sortMeasurements(std::vector<Measurement> &Events) {
  sortByTick(Events);
}

InvocationList active::findInvocations(ArrayRef<Measurement> Sorted,
                                       uint32_t Portion) {
  InvocationList Out;
  std::vector<size_t> Open; // enters of Portion not yet matched
  for (size_t I = 0; I < Sorted.size(); ++I) {
    const Measurement &M = Sorted[I];
    if (M.Portion != Portion)
      continue;
    if (M.Kind == Enter) {
      Open.push_back(I);
      continue;
    }
    if (Open.empty()) {
      ++Out.UnmatchedExits;
      continue;
    }
    Invocation Inv;
    Inv.EnterIdx = Open.back();
    Inv.ExitIdx = I;
    Open.pop_back();
    Inv.Elapsed = {fixed(Sorted[Inv.EnterIdx].Tick), fixed(M.Tick)};
    Inv.Outermost = Open.empty();
    Out.Invocations.push_back(Inv);
  }
  Out.UnmatchedEnters = Open.size();
  llvm::sort(Out.Invocations, [](const Invocation &A, const Invocation &B) {
    return A.EnterIdx < B.EnterIdx;
  });
  return Out;
}

static Interval clip(Interval I, Interval To) {
  return {std::max(I.Start, To.Start), std::min(I.End, To.End)};
}

std::vector<Interval> active::overheadIntervals(ArrayRef<Measurement> Sorted,
                                                const Invocation &Inv,
                                                const Overhead &Table) {
  std::vector<Interval> Out;
  // The exit, the latest measurement, is left out: its cost falls after
  // the recorded end.
  for (size_t I = Inv.EnterIdx; I < Inv.ExitIdx && I < Sorted.size(); ++I) {
    // Not clipped: the cost is processor work done inside the invocation
    // even where the interval drawn from its timestamp would stick out.
    int64_t T = fixed(Sorted[I].Tick);
    Interval C = {T, T + Table.of(Sorted[I].Kind) +
                         int64_t(Sorted[I].Measured) * kFixed};
    if (C.length() > 0)
      Out.push_back(C);
  }
  return Out;
}

std::vector<Interval> active::measuredIntervals(ArrayRef<Measurement> Sorted,
                                                const Invocation &Inv) {
  std::vector<Interval> Out;
  for (size_t I = Inv.EnterIdx; I < Inv.ExitIdx && I < Sorted.size(); ++I)
    if (Sorted[I].Measured) {
      int64_t T = fixed(Sorted[I].Tick);
      Out.push_back({T, T + int64_t(Sorted[I].Measured) * kFixed});
    }
  return Out;
}

std::vector<Interval> active::swapOutPairs(ArrayRef<Switch> Sorted,
                                           uint64_t Thread) {
  std::vector<Interval> Out;
  bool IsOut = false;
  int64_t Since = 0;
  for (const Switch &S : Sorted) {
    if (S.Old == Thread && S.New != Thread) {
      if (!IsOut) {
        IsOut = true;
        Since = fixed(S.Tick);
      }
    } else if (S.New == Thread && S.Old != Thread) {
      if (IsOut) {
        Out.push_back({Since, fixed(S.Tick)});
        IsOut = false;
      }
    }
  }
  if (IsOut)
    Out.push_back({Since, INT64_MAX});
  return Out;
}

std::vector<Interval> active::swapOutIntervals(ArrayRef<Switch> Sorted,
                                               uint64_t Thread,
                                               Interval Elapsed) {
  std::vector<Interval> Out;
  for (const Interval &I : swapOutPairs(Sorted, Thread)) {
    Interval C = clip(I, Elapsed);
    if (C.length() > 0)
      Out.push_back(C);
  }
  return Out;
}

int64_t active::unionMeasure(std::vector<Interval> V) {
  llvm::sort(V, [](const Interval &A, const Interval &B) {
    return A.Start < B.Start;
  });
  int64_t Total = 0;
  bool Have = false;
  Interval Cur;
  for (const Interval &I : V) {
    if (I.length() == 0)
      continue;
    if (Have && I.Start <= Cur.End) {
      Cur.End = std::max(Cur.End, I.End);
      continue;
    }
    if (Have)
      Total += Cur.length();
    Cur = I;
    Have = true;
  }
  if (Have)
    Total += Cur.length();
  return Total;
}

ActiveFigures active::activeTime(Interval Elapsed, ArrayRef<Interval> OH,
                                 ArrayRef<Interval> Swap,
                                 ArrayRef<Interval> Measured) {
  ActiveFigures F;
  F.Elapsed = Elapsed.length();
  // Elapsed minus the total of both interval sets. An
  // overhead interval overlapping a switched-out one is still subtracted in
  // full: the table's cost is work done on the processor, only later.
  for (const Interval &I : OH)
    F.Overhead += I.length();
  std::vector<Interval> Clipped;
  for (const Interval &I : Swap)
    Clipped.push_back(clip(I, Elapsed));
  F.SwappedOut = unionMeasure(Clipped);
  // A probe's measured part is wall time instead: what of it the thread
  // spent switched out is counted once, as switched out (the probes'
  // intervals never overlap one another).
  if (!Measured.empty()) {
    int64_t MeasuredTotal = 0;
    for (const Interval &I : Measured)
      MeasuredTotal += I.length();
    llvm::append_range(Clipped, Measured);
    F.Overhead -= MeasuredTotal + F.SwappedOut - unionMeasure(std::move(Clipped));
  }
  F.Active = F.Elapsed - F.Overhead - F.SwappedOut;
  return F;
}

namespace {

/// The thread's switched-out time before any point, in O(log n): its
/// swap-out pairs (disjoint and in order, swapOutPairs) with the prefix sums
/// of their lengths. Pairs are cut at \p Horizon, beyond which no elapsed
/// interval reaches (an unfinished pair runs to INT64_MAX).
class SwapOutTime {
public:
  SwapOutTime(ArrayRef<Interval> All, int64_t Horizon) {
    Prefix.push_back(0);
    for (Interval I : All) {
      if (I.Start >= Horizon)
        break;
      I.End = std::min(I.End, Horizon);
      Pairs.push_back(I);
      Prefix.push_back(Prefix.back() + I.length());
    }
  }
  /// Switched-out time before \p T.
  int64_t before(int64_t T) const {
    size_t K = partition_point(Pairs, [&](const Interval &I) {
                 return I.Start < T;
               }) - Pairs.begin();
    int64_t Total = Prefix[K];
    if (K && Pairs[K - 1].End > T)
      Total -= Pairs[K - 1].End - T;
    return Total;
  }
  /// Switched-out time inside \p I: the measure of swapOutIntervals(I).
  int64_t in(Interval I) const {
    return I.End > I.Start ? before(I.End) - before(I.Start) : 0;
  }
  /// At least the number of swapOutIntervals(I) (pairs reaching into I).
  uint64_t count(Interval I) const {
    auto Lo = partition_point(Pairs,
                              [&](const Interval &P) { return P.End <= I.Start; });
    auto Hi = partition_point(Pairs,
                              [&](const Interval &P) { return P.Start < I.End; });
    return Hi > Lo ? uint64_t(Hi - Lo) : 0;
  }

private:
  std::vector<Interval> Pairs;
  std::vector<int64_t> Prefix; // Prefix[K]: lengths of Pairs[0..K) summed
};

/// One thread's sorted measurements with prefix sums over them, so that
/// each invocation's figures take O(log n) instead of a walk over
/// everything inside it: a deep recursion's invocations nest, and walking
/// each would be quadratic in the depth. Exact where the probes' measured
/// intervals are disjoint, as the runtime writes them (a probe reads its
/// second tick before the next probe reads its first); a thread where two
/// overlap takes the stage functions per invocation instead (Exact false).
class ThreadSweep {
public:
  ThreadSweep(const ThreadInput &T, const Overhead &Table);
  ActiveFigures figures(const Invocation &Inv) const;
  /// The number of intervals --intervals would print for \p Inv, at most.
  uint64_t intervalCount(const Invocation &Inv) const;
  bool Exact = true;
  std::vector<Measurement> Events; // sorted
  std::vector<Switch> Switches;    // sorted

private:
  std::optional<SwapOutTime> Swap;   // SwitchesMeasured only
  std::vector<int64_t> OverheadSum;  // table + measured costs before index I
  std::vector<int64_t> OverlapSum;   // measured time switched out, before I
  std::vector<uint64_t> MeasuredSum; // measured events before I
  std::vector<size_t> LastMeasured;  // last event before I with Measured
                                     // (SIZE_MAX: none)
  int64_t measuredEnd(size_t I) const {
    return fixed(Events[I].Tick) + int64_t(Events[I].Measured) * kFixed;
  }
};

} // namespace

ThreadSweep::ThreadSweep(const ThreadInput &T, const Overhead &Table)
    : Events(T.Events), Switches(T.Switches) {
  sortMeasurements(Events);
  sortByTick(Switches);
  size_t N = Events.size();
  int64_t Horizon = N ? fixed(Events.back().Tick) : 0;
  if (T.SwitchesMeasured)
    Swap.emplace(swapOutPairs(Switches, T.Id), Horizon);
  OverheadSum.assign(N + 1, 0);
  OverlapSum.assign(N + 1, 0);
  MeasuredSum.assign(N + 1, 0);
  LastMeasured.assign(N + 1, SIZE_MAX);
  int64_t PrevEnd = INT64_MIN;
  for (size_t I = 0; I < N; ++I) {
    const Measurement &M = Events[I];
    int64_t Cost = Table.of(M.Kind) + int64_t(M.Measured) * kFixed;
    OverheadSum[I + 1] = OverheadSum[I] + std::max<int64_t>(Cost, 0);
    OverlapSum[I + 1] = OverlapSum[I];
    MeasuredSum[I + 1] = MeasuredSum[I] + (M.Measured != 0);
    LastMeasured[I + 1] = LastMeasured[I];
    if (!M.Measured)
      continue;
    Interval Own = {fixed(M.Tick), measuredEnd(I)};
    Exact &= Own.Start >= PrevEnd;
    PrevEnd = Own.End;
    if (Swap)
      OverlapSum[I + 1] += Swap->in(Own);
    LastMeasured[I + 1] = I;
  }
}

/// activeTime() of \p Inv from the sums: the overhead intervals' total, the
/// switched-out time inside the elapsed interval, and the measured parts'
/// overlap with it (counted once, as switched out). The measured intervals
/// being disjoint, only the last one inside can reach past the exit; its
/// overlap is cut there.
ActiveFigures ThreadSweep::figures(const Invocation &Inv) const {
  ActiveFigures F;
  size_t A = Inv.EnterIdx, B = Inv.ExitIdx;
  F.Elapsed = Inv.Elapsed.length();
  F.Overhead = OverheadSum[B] - OverheadSum[A];
  if (Swap) {
    F.SwappedOut = Swap->in(Inv.Elapsed);
    int64_t Overlap = OverlapSum[B] - OverlapSum[A];
    size_t Last = LastMeasured[B];
    if (Last != SIZE_MAX && Last >= A && measuredEnd(Last) > Inv.Elapsed.End) {
      Interval Own = {fixed(Events[Last].Tick), measuredEnd(Last)};
      Overlap -= Swap->in(Own) -
                 Swap->in({Own.Start, std::max(Own.Start, Inv.Elapsed.End)});
    }
    F.Overhead -= Overlap;
  }
  F.Active = F.Elapsed - F.Overhead - F.SwappedOut;
  return F;
}

uint64_t ThreadSweep::intervalCount(const Invocation &Inv) const {
  uint64_t N = Inv.ExitIdx - Inv.EnterIdx;
  N += MeasuredSum[Inv.ExitIdx] - MeasuredSum[Inv.EnterIdx];
  if (Swap)
    N += Swap->count(Inv.Elapsed);
  return N;
}

namespace {

/// The invocations of every portion of one thread in one sweep over its
/// sorted measurements: an open-enter stack per portion.
class PortionSweep {
public:
  PortionSweep(const ThreadSweep &Th, const Input &In, size_t Thread,
               int64_t PortionFilter, ResultDetail Detail)
      : Th(Th), In(In), Thread(Thread), PortionFilter(PortionFilter),
        Detail(Detail) {}
  std::vector<PortionResult> run();

private:
  PortionResult &result(uint32_t Portion);
  void invocation(PortionResult &R, Invocation Inv);

  const ThreadSweep &Th;
  const Input &In;
  size_t Thread;
  int64_t PortionFilter;
  ResultDetail Detail;
  std::vector<PortionResult> Out; // by first measurement
  DenseMap<uint32_t, size_t> Index;
  std::vector<std::vector<size_t>> Open; // per result: enters not yet matched
};

} // namespace

PortionResult &PortionSweep::result(uint32_t Portion) {
  auto [It, New] = Index.try_emplace(Portion, Out.size());
  if (New) {
    PortionResult R;
    R.Pid = In.Pid;
    R.Thread = Thread;
    R.Portion = Portion;
    R.SwitchesMeasured = In.Threads[Thread].SwitchesMeasured;
    Out.push_back(std::move(R));
    Open.emplace_back();
  }
  return Out[It->second];
}

void PortionSweep::invocation(PortionResult &R, Invocation Inv) {
  ++R.Invocations;
  R.IntervalCount += Th.intervalCount(Inv);
  InvocationResult IR;
  IR.Inv = Inv;
  if (Th.Exact) {
    IR.Figures = Th.figures(Inv);
  } else {
    std::vector<Interval> OH = overheadIntervals(Th.Events, Inv, In.Table);
    std::vector<Interval> Me = measuredIntervals(Th.Events, Inv);
    std::vector<Interval> Sw;
    if (R.SwitchesMeasured)
      Sw = swapOutIntervals(Th.Switches, In.Threads[Thread].Id, Inv.Elapsed);
    IR.Figures = activeTime(Inv.Elapsed, OH, Sw, Me);
  }
  if (Detail == ResultDetail::Intervals) {
    IR.OverheadSet = overheadIntervals(Th.Events, Inv, In.Table);
    IR.MeasuredSet = measuredIntervals(Th.Events, Inv);
    if (R.SwitchesMeasured)
      IR.SwapOutSet =
          swapOutIntervals(Th.Switches, In.Threads[Thread].Id, Inv.Elapsed);
  }
  if (Inv.Outermost) {
    ++R.Outermost;
    R.Total.Elapsed += IR.Figures.Elapsed;
    R.Total.Overhead += IR.Figures.Overhead;
    R.Total.SwappedOut += IR.Figures.SwappedOut;
    R.Total.Active += IR.Figures.Active;
  }
  if (Detail != ResultDetail::Totals)
    R.Details.push_back(std::move(IR));
}

std::vector<PortionResult> PortionSweep::run() {
  const std::vector<Measurement> &Ev = Th.Events;
  for (size_t I = 0; I < Ev.size(); ++I) {
    const Measurement &M = Ev[I];
    if (PortionFilter >= 0 && uint32_t(PortionFilter) != M.Portion)
      continue;
    PortionResult &R = result(M.Portion);
    std::vector<size_t> &Enters = Open[Index[M.Portion]];
    if (M.Kind == Enter) {
      Enters.push_back(I);
      continue;
    }
    if (Enters.empty()) {
      ++R.UnmatchedExits;
      continue;
    }
    Invocation Inv;
    Inv.EnterIdx = Enters.back();
    Inv.ExitIdx = I;
    Enters.pop_back();
    Inv.Elapsed = {fixed(Ev[Inv.EnterIdx].Tick), fixed(M.Tick)};
    Inv.Outermost = Enters.empty();
    invocation(R, Inv);
  }
  for (size_t K = 0; K < Out.size(); ++K) {
    Out[K].UnmatchedEnters = Open[K].size();
    // Completed by exit time; listed by enter time, as findInvocations.
    llvm::sort(Out[K].Details,
               [](const InvocationResult &A, const InvocationResult &B) {
                 return A.Inv.EnterIdx < B.Inv.EnterIdx;
               });
  }
  return std::move(Out);
}

std::vector<PortionResult> active::computeActiveTime(const Input &In,
                                                     int64_t PortionFilter,
                                                     int64_t ThreadFilter,
                                                     ResultDetail Detail) {
  std::vector<PortionResult> Out;
  for (size_t TI = 0; TI < In.Threads.size(); ++TI) {
    if (ThreadFilter >= 0 && size_t(ThreadFilter) != TI)
      continue;
    ThreadSweep Th(In.Threads[TI], In.Table);
    for (PortionResult &R :
         PortionSweep(Th, In, TI, PortionFilter, Detail).run())
      Out.push_back(std::move(R));
  }
  return Out;
}

std::string active::formatTicks(int64_t Ticks256) {
  return formatv("{0:F2}", double(Ticks256) / double(kFixed)).str();
}

double active::ticks256ToNs(int64_t Ticks256, uint64_t TickRate) {
  return double(Ticks256) / double(kFixed) * 1e9 / double(TickRate);
}
