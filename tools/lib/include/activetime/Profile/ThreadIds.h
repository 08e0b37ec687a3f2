//===- activetime/Profile/ThreadIds.h - Naming threads ----------*- C++ -*-===//
//
// Part of ActiveTime. Linux reuses a thread id once its thread has exited:
// a program that creates and joins threads can profile several threads
// with the same tid. Each keeps an identity of its own: its tid, and when
// other threads of its process had it too, its place among them in the
// order they started, "1234#2" (Thread::TidOrder). Reports name threads,
// and --tid selects them, by that label; a trace belongs to the thread of
// its tid whose life holds it.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_THREADIDS_H
#define ACTIVETIME_PROFILE_THREADIDS_H

#include "activetime/Profile/Profile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace activetime {
namespace profile {

/// Sets TidOrder of \p P's threads (ranked by start tick among those of the
/// same tid; 0 where the tid is the thread's alone) and of its traces (that
/// of the thread whose [StartTick, EndTick] holds the trace's first tick,
/// else of the same-tid thread in the trace's place among the traces of its
/// tid).
void numberReusedTids(Process &P);

/// "1234", or "1234#2" for the second thread of its process that had tid
/// 1234.
std::string threadLabel(uint64_t Tid, uint32_t TidOrder);
inline std::string threadLabel(const Thread &T) {
  return threadLabel(T.Tid, T.TidOrder);
}
inline std::string threadLabel(const Trace &T) {
  return threadLabel(T.Tid, T.TidOrder);
}

/// Whether thread \p Th recorded trace \p Tr.
inline bool tracedBy(const Trace &Tr, const Thread &Th) {
  return Tr.Tid == Th.Tid && Tr.TidOrder == Th.TidOrder;
}

/// What one --tid value selects: the threads with Tid, or with Order > 0
/// only the Order-th of them ("1234#2").
struct ThreadSelector {
  uint64_t Tid = 0;
  uint32_t Order = 0; // 0: every thread that had the tid
  ThreadSelector(uint64_t Tid = 0, uint32_t Order = 0)
      : Tid(Tid), Order(Order) {}
  bool matches(uint64_t T, uint32_t O) const {
    return T == Tid && (!Order || O == Order);
  }
  std::string str() const { return threadLabel(Tid, Order); }
};

/// Parses "1234" or "1234#2".
llvm::Expected<ThreadSelector> parseThreadSelector(llvm::StringRef S);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_THREADIDS_H
