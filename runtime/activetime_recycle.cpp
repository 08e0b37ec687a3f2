//===- activetime_recycle.cpp - Mappings reused from thread to thread -----===//
//
// Part of ActiveTime. See activetime_recycle.h.
//
//===----------------------------------------------------------------------===//

#include "activetime_recycle.h"

#include "sanitizer_common/sanitizer_mutex.h"

namespace __activetime {

namespace {
// A few sizes (a thread's mappings come in fewer than that many), each with
// room for the mappings of that many threads finishing together.
constexpr int kSizes = 12;
constexpr int kPerSize = 32;

struct Spare {
  void *P;
  uptr Dirty;
};
struct SizeClass {
  uptr Bytes; // 0: unused class
  int Num;
  Spare Spares[kPerSize];
};
StaticSpinMutex recycle_mu;
SizeClass classes[kSizes];

// recycle_mu held. Bytes' class, or (Make) a free one; null if none.
SizeClass *ClassOf(uptr Bytes, bool Make) {
  SizeClass *Free = nullptr;
  for (SizeClass &C : classes) {
    if (C.Bytes == Bytes)
      return &C;
    if (!C.Bytes && !Free)
      Free = &C;
  }
  if (Make && Free)
    Free->Bytes = Bytes;
  return Make ? Free : nullptr;
}
} // namespace

void *MapRecycled(uptr Bytes, const char *Name) {
  Bytes = RoundUpTo(Bytes, GetPageSizeCached());
  Spare S = {nullptr, 0};
  {
    SpinMutexLock L(&recycle_mu);
    SizeClass *C = ClassOf(Bytes, false);
    if (C && C->Num)
      S = C->Spares[--C->Num];
  }
  if (!S.P)
    return MmapOrDie(Bytes, Name);
  internal_memset(S.P, 0, S.Dirty);
  return S.P;
}

void Recycle(void *P, uptr Bytes, uptr Dirty) {
  if (!P)
    return;
  Bytes = RoundUpTo(Bytes, GetPageSizeCached());
  {
    SpinMutexLock L(&recycle_mu);
    SizeClass *C = ClassOf(Bytes, true);
    if (C && C->Num < kPerSize) {
      C->Spares[C->Num++] = {P, Dirty < Bytes ? Dirty : Bytes};
      return;
    }
  }
  UnmapOrDie(P, Bytes);
}

void LockRecycleForFork() { recycle_mu.Lock(); }
void UnlockRecycleAfterFork() { recycle_mu.Unlock(); }

} // namespace __activetime
