//===- ThreadIds.cpp - Naming threads -------------------------------------===//
//
// Part of ActiveTime. See activetime/Profile/ThreadIds.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/ThreadIds.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;

/// The first tick a trace holds, if any.
static std::optional<uint64_t> firstTick(const Trace &Tr) {
  std::optional<uint64_t> First;
  if (!Tr.Events.empty())
    First = Tr.Events.front().Tick;
  for (const SwitchEvent &S : Tr.Switches)
    First = std::min(First.value_or(S.Tick), S.Tick);
  return First;
}

/// The traces of one reused tid: each to the thread whose life holds its
/// first tick (lives of threads with one tid never overlap), else to the
/// thread in its place among the tid's traces (the runtime writes both in
/// start order).
static void numberTraces(Process &P, uint64_t Tid,
                         ArrayRef<const Thread *> Threads) {
  size_t Place = 0;
  for (Trace &Tr : P.Traces) {
    if (Tr.Tid != Tid)
      continue;
    std::optional<uint64_t> First = firstTick(Tr);
    const Thread *const *Holder = find_if(Threads, [&](const Thread *T) {
      return First && *First >= T->StartTick && *First <= T->EndTick;
    });
    if (Holder != Threads.end())
      Tr.TidOrder = (*Holder)->TidOrder;
    else
      Tr.TidOrder = Threads[std::min(Place, Threads.size() - 1)]->TidOrder;
    ++Place;
  }
}

void profile::numberReusedTids(Process &P) {
  // A std::map: a tid read from a file may be any 64-bit value, DenseMap's
  // reserved keys included.
  std::map<uint64_t, std::vector<Thread *>> ByTid;
  for (Thread &T : P.Threads) {
    T.TidOrder = 0;
    ByTid[T.Tid].push_back(&T);
  }
  for (Trace &Tr : P.Traces)
    Tr.TidOrder = 0;
  for (auto &[Tid, Threads] : ByTid) {
    if (Threads.size() < 2)
      continue;
    // Stable: section order breaks ties (the runtime writes in start order).
    llvm::stable_sort(Threads, [](const Thread *A, const Thread *B) {
      return A->StartTick < B->StartTick;
    });
    for (size_t I = 0; I < Threads.size(); ++I)
      Threads[I]->TidOrder = uint32_t(I + 1);
    std::vector<const Thread *> Ordered(Threads.begin(), Threads.end());
    numberTraces(P, Tid, Ordered);
  }
}

std::string profile::threadLabel(uint64_t Tid, uint32_t TidOrder) {
  return TidOrder ? utostr(Tid) + "#" + utostr(TidOrder) : utostr(Tid);
}

Expected<ThreadSelector> profile::parseThreadSelector(StringRef S) {
  auto [TidText, OrderText] = S.split('#');
  ThreadSelector Sel;
  bool HasOrder = S.contains('#');
  if (TidText.getAsInteger(10, Sel.Tid) ||
      (HasOrder && (OrderText.getAsInteger(10, Sel.Order) || !Sel.Order)))
    return createStringError(inconvertibleErrorCode(),
                             "--tid=" + S +
                                 ": not a thread id (a number, or N#K for the "
                                 "K-th thread, from 1 in start order, that "
                                 "had id N)");
  return Sel;
}
