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

std::vector<PortionResult> active::computeActiveTime(const Input &In,
                                                     int64_t PortionFilter,
                                                     int64_t ThreadFilter) {
  std::vector<PortionResult> Out;
  for (size_t TI = 0; TI < In.Threads.size(); ++TI) {
    if (ThreadFilter >= 0 && size_t(ThreadFilter) != TI)
      continue;
    const ThreadInput &T = In.Threads[TI];
    std::vector<Measurement> Events = T.Events;
    sortMeasurements(Events);
    std::vector<Switch> Switches = T.Switches;
    sortByTick(Switches);
    // Portions in order of their first measurement on this thread.
    std::vector<uint32_t> Portions;
    DenseMap<uint32_t, bool> Seen;
    for (const Measurement &M : Events)
      if (Seen.try_emplace(M.Portion, true).second)
        Portions.push_back(M.Portion);
    for (uint32_t P : Portions) {
      if (PortionFilter >= 0 && uint32_t(PortionFilter) != P)
        continue;
      InvocationList L = findInvocations(Events, P);
      if (L.Invocations.empty() && !L.UnmatchedEnters && !L.UnmatchedExits)
        continue;
      PortionResult R;
      R.Pid = In.Pid;
      R.Thread = TI;
      R.Portion = P;
      R.Invocations = L.Invocations.size();
      R.UnmatchedEnters = L.UnmatchedEnters;
      R.UnmatchedExits = L.UnmatchedExits;
      R.SwitchesMeasured = T.SwitchesMeasured;
      for (const Invocation &Inv : L.Invocations) {
        InvocationResult IR;
        IR.Inv = Inv;
        IR.OverheadSet = overheadIntervals(Events, Inv, In.Table);
        IR.MeasuredSet = measuredIntervals(Events, Inv);
        if (T.SwitchesMeasured)
          IR.SwapOutSet = swapOutIntervals(Switches, T.Id, Inv.Elapsed);
        IR.Figures = activeTime(Inv.Elapsed, IR.OverheadSet, IR.SwapOutSet,
                                IR.MeasuredSet);
        if (Inv.Outermost) {
          ++R.Outermost;
          R.Total.Elapsed += IR.Figures.Elapsed;
          R.Total.Overhead += IR.Figures.Overhead;
          R.Total.SwappedOut += IR.Figures.SwappedOut;
          R.Total.Active += IR.Figures.Active;
        }
        R.Details.push_back(std::move(IR));
      }
      Out.push_back(std::move(R));
    }
  }
  return Out;
}

std::string active::formatTicks(int64_t Ticks256) {
  return formatv("{0:F2}", double(Ticks256) / double(kFixed)).str();
}

double active::ticks256ToNs(int64_t Ticks256, uint64_t TickRate) {
  return double(Ticks256) / double(kFixed) * 1e9 / double(TickRate);
}
