//===- activetime_counts.cpp - Counted calls --------------------*- C++ -*-===//
//
// See activetime_counts.h. The counting itself is compiled into the
// instrumented functions; this file owns the arrays, a thread's adoption of
// them, the switch to counting and the collection switch.
//
//===----------------------------------------------------------------------===//

#include "activetime_counts.h"

#include "activetime_calltree.h"
#include "activetime_codesamples.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_module.h"
#include "activetime_recycle.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"
#include "activetime_writer.h"

namespace {
// Every PIC module's functions read as timed here until a thread adopts its
// own array (abi.h). Written racily by every thread, never read as counts.
__sanitizer::u64 shared_bootstrap[__activetime::kMaxSharedSlots];
} // namespace

// The runtime's thread-local pointer, for the PIC modules (abi.h).
extern "C" SANITIZER_INTERFACE_ATTRIBUTE THREADLOCAL __sanitizer::u64
    *__activetime_counts __attribute__((tls_model("initial-exec")));
THREADLOCAL __sanitizer::u64 *__activetime_counts = shared_bootstrap;

namespace __activetime {

using activetime::abi::kCountedBit;
namespace raw = activetime::raw;

namespace {
u32 shared_slots_in_use = 1; // slot 0 is never handed out
StaticSpinMutex slots_mu;
u64 timing_threshold;
u32 counting_off;

// Where calls go while they must not be counted (collection off): one array
// shared by every thread, in which every function reads as counted so no
// probe runs. Written racily, never read. Filled lazily up to the highest
// index handed out.
constexpr uptr kDiscardSlots = uptr(kMaxSharedSlots) + (uptr(1) << 20);
u64 *discard;
uptr discard_filled;
StaticSpinMutex discard_mu;

u64 *Discard(uptr Need) {
  if (Need > kDiscardSlots)
    Need = kDiscardSlots;
  SpinMutexLock L(&discard_mu);
  if (!discard)
    discard = (u64 *)MmapNoReserveOrDie(kDiscardSlots * sizeof(u64),
                                        "ActiveTime discarded counts");
  for (; discard_filled < Need; ++discard_filled)
    discard[discard_filled] = kCountedBit;
  return discard;
}

// Arena chunks start with their link and size, then cache-line pieces.
constexpr uptr kChunkHeader = 64;
constexpr uptr kMinChunk = 64u << 10;

// A new array of N counters for the thread: freed only when the thread is
// folded (the writer reads the arrays of finished threads).
u64 *NewModuleArray(ThreadState *TS, u32 N) {
  uptr Bytes = RoundUpTo(uptr(N ? N : 1) * sizeof(u64), 64);
  if (Bytes > TS->CountArenaLeft) {
    uptr Chunk = RoundUpTo(kChunkHeader + (Bytes > kMinChunk ? Bytes : kMinChunk),
                           GetPageSizeCached());
    char *C = (char *)MapRecycled(Chunk, "ActiveTime call counts");
    ((void **)C)[0] = TS->CountChunks;
    ((uptr *)C)[1] = Chunk;
    TS->CountChunks = C;
    TS->CountArena = C + kChunkHeader;
    TS->CountArenaLeft = Chunk - kChunkHeader;
  }
  u64 *A = (u64 *)TS->CountArena;
  TS->CountArena += Bytes;
  TS->CountArenaLeft -= Bytes;
  return A;
}

void Append(CountArrays &L, const CountArray &E) {
  u32 N = L.Size;
  if (!L.Last)
    L.Last = &L.First;
  if (N && N % CountArrays::kChunk == 0) {
    auto *C = (CountArrays::Chunk *)MmapOrDie(sizeof(CountArrays::Chunk),
                                              "ActiveTime call counts");
    __atomic_store_n(&L.Last->Next, C, __ATOMIC_RELEASE);
    L.Last = C;
  }
  L.Last->Entries[N % CountArrays::kChunk] = E;
  // Sequentially consistent with the collection switch (AimPointer).
  __atomic_store_n(&L.Size, N + 1, __ATOMIC_SEQ_CST);
}

// The calling thread's pointer for MI's counters.
u64 **SlotOf(const ModuleInfo *MI) {
  if (MI->SharedCounts)
    return &__activetime_counts;
  return MI->Bootstrap ? (u64 **)(ThreadPointer() + MI->CountsTlsOffset)
                       : nullptr;
}

// Where the counter of Fn is on the calling thread, or null (a region, a
// module without counters, or no array adopted yet).
u64 *CounterOf(const FuncDesc *Fn) {
  ModuleInfo *MI;
  u32 I;
  if (!FindFuncModule(Fn, &MI, &I))
    return nullptr;
  u64 **Slot = SlotOf(MI);
  if (!Slot || (MI->SharedCounts && !MI->CountBase))
    return nullptr;
  u64 *A = *Slot;
  if (A == MI->Bootstrap || A == shared_bootstrap || A == discard)
    return nullptr;
  return &A[(MI->SharedCounts ? MI->CountBase : 0) + I];
}
} // namespace

uptr ThreadPointer() {
#if defined(__x86_64__)
  uptr TP;
  __asm__("mov %%fs:0, %0" : "=r"(TP));
  return TP;
#elif defined(__aarch64__)
  uptr TP;
  __asm__("mrs %0, tpidr_el0" : "=r"(TP));
  return TP;
#else
  return 0;
#endif
}

u32 AllocateSharedSlots(u32 N) {
  SpinMutexLock L(&slots_mu);
  if (N == 0 || N > kMaxSharedSlots - shared_slots_in_use)
    return 0;
  u32 Base = shared_slots_in_use;
  __atomic_store_n(&shared_slots_in_use, Base + N, __ATOMIC_RELEASE);
  return Base;
}

u64 *SharedBootstrap() { return shared_bootstrap; }

// The calls of MI's functions so far on the thread, made through the
// bootstrap array (every one timed): its nodes' calls and its open frames.
void CountTimedCalls(const ThreadTls &T, u32 OpenBelow, const ModuleInfo *MI,
                     u64 *A) {
  auto Index = [&](const FuncDesc *Fn, u32 *I) {
    uptr Addr = uptr(Fn);
    if (Addr < MI->FuncsBegin || Addr >= MI->FuncsEnd)
      return false;
    *I = u32((Addr - MI->FuncsBegin) / sizeof(FuncDesc));
    return true;
  };
  u32 I;
  for (u32 N = 1, E = T.Tree->Size(); N < E; ++N) {
    const Node *X = T.Tree->At(N);
    if (Index(X->Fn, &I))
      A[I] += X->Calls;
  }
  for (u32 D = 1; D < OpenBelow && D < T.Depth; ++D)
    if (Index(T.Stack[D].Fn, &I))
      A[I] += 1;
}

// Aims the thread's pointer at A, or at the discard array while collection
// is off; checked again after the store, so that a collection switch that
// ran meanwhile (and may have missed the new array) is not undone.
void AimPointer(u64 **Slot, u64 *A) {
  for (;;) {
    u32 Off = __atomic_load_n(&counting_off, __ATOMIC_SEQ_CST);
    __atomic_store_n(Slot, Off ? Discard(kDiscardSlots) : A, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&counting_off, __ATOMIC_SEQ_CST) == Off)
      return;
  }
}

void AdoptCounters(ThreadTls &T, const FuncDesc *Fn, u32 LateBelow) {
  ThreadState *TS = T.TS;
  ModuleInfo *MI;
  u32 I;
  if (!TS)
    return;
  if (!FindFuncModule(Fn, &MI, &I)) {
    // Not registered yet (a call from an earlier constructor): the calls
    // made now are only in nodes until the thread adopts the module.
    TS->UncountedNodes = true;
    return;
  }
  u64 **Slot = SlotOf(MI);
  if (!Slot || (MI->SharedCounts && !MI->CountBase))
    return;
  u64 *Boot = MI->SharedCounts ? shared_bootstrap : MI->Bootstrap;
  if (*Slot != Boot)
    return; // adopted already (or collection is off)
  u64 *A = MI->SharedCounts ? (u64 *)MmapNoReserveOrDie(
                                  uptr(kMaxSharedSlots) * sizeof(u64),
                                  "ActiveTime call counts")
                            : NewModuleArray(TS, MI->NumFuncs);
  u64 *Mine = A + (MI->SharedCounts ? MI->CountBase : 0);
  // Calls from before the module registered are in nodes and open frames
  // only (below the frame being closed, for a late adoption).
  if (TS->UncountedNodes)
    CountTimedCalls(T, LateBelow ? LateBelow : T.Depth, MI, Mine);
  if (!LateBelow)
    Mine[I] += 1; // this call went through the bootstrap array
  Append(TS->Counts, {MI->SharedCounts ? nullptr : MI, Slot, A});
  AimPointer(Slot, A);
}

const u64 *ThreadCounters(const ThreadState *TS, const ModuleInfo *MI) {
  const u64 *Found = nullptr;
  TS->Counts.ForEach([&](const CountArray &A) {
    if (MI->SharedCounts && MI->CountBase && !A.Module)
      Found = &A.Counts[MI->CountBase];
    else if (!MI->SharedCounts && A.Module == MI)
      Found = A.Counts;
  });
  return Found;
}

void ResetThreadCountsAfterFork(ThreadState *TS) {
  u32 SharedN = __atomic_load_n(&shared_slots_in_use, __ATOMIC_ACQUIRE);
  TS->Counts.ForEach([&](const CountArray &A) {
    uptr N = A.Module ? A.Module->NumFuncs : SharedN;
    for (uptr I = 0; I < N; ++I)
      A.Counts[I] &= kCountedBit;
  });
}

void SetCountingEnabled(bool On) {
  u64 *D = On ? nullptr : Discard(kDiscardSlots);
  LockThreadRegistry();
  __atomic_store_n(&counting_off, On ? 0u : 1u, __ATOMIC_SEQ_CST);
  // Against AdoptCounters' Append then AimPointer: either the walk below
  // sees the thread's new array, or AimPointer's read sees the new state.
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  // Another live thread's pointer is an aligned word in its TLS block: it
  // sees the old or the new array at its next call. A finished thread's
  // TLS block may be gone.
  for (ThreadState *TS = LiveListHead(); TS; TS = TS->LiveNext) {
    if (TS->Finished)
      continue;
    TS->Counts.ForEach([&](const CountArray &A) {
      __atomic_store_n(A.Slot, On ? A.Counts : D, __ATOMIC_SEQ_CST);
    });
  }
  UnlockThreadRegistry();
}

void InitTiming() {
  const activetime::raw::OverheadRecord &O = runtime.Overhead;
  u64 Pair256 = O.Pair256 ? O.Pair256 : O.Enter256 + O.Exit256;
  int Ratio = flags()->timing_ratio;
  bool Trace = flags()->mode == RunMode::Trace;
  u64 Th = Ratio > 0 && !Trace ? (Pair256 * u64(Ratio)) >> 8 : 0;
  __atomic_store_n(&timing_threshold, Th, __ATOMIC_RELAXED);
}

void SetTimingThreshold(u64 Ticks) {
  __atomic_store_n(&timing_threshold, Ticks, __ATOMIC_RELAXED);
}
u64 TimingThreshold() {
  return __atomic_load_n(&timing_threshold, __ATOMIC_RELAXED);
}

void CheckTiming(Node *N, u32 Frame) {
  u64 Calls = N->Calls;
  // Later checkpoints catch functions whose first calls were the long ones.
  N->NextCheck = Calls < (u64(1) << 40) ? Calls * 4 : ~0ull;
  u64 Threshold = TimingThreshold();
  if (!Threshold && flags()->timing_ratio > 0 && ProbeTablePending()) {
    // While the table's calibration is pending (the pair's cost unknown),
    // no function is switched to counting: look again after an eighth more
    // calls, not 4x.
    N->NextCheck = Calls + Calls / 8 + 1;
    return;
  }
  if (!Threshold || !Calls)
    return;
  s64 Active = s64(N->Incl) - s64((N->Ovh256 + 128) >> 8) - s64(N->Off);
  if (Active >= 0 && u64(Active) >= Threshold * Calls)
    return;
  if (!N->Counter) {
    // A function called before its module registered never adopted.
    AdoptCounters(at_tls, N->Fn, /*LateBelow=*/Frame);
    N->Counter = CounterOf(N->Fn);
  }
  if (!N->Counter || (*N->Counter & kCountedBit))
    return;
  // Only this thread writes its counters (the inline increments included).
  *N->Counter |= kCountedBit;
  // Its timed frames now have counted calls to split off: code samples.
  if (!at_tls.TS->Code.Counted)
    StartSamplingCounted(at_tls);
  VLog(2, "%s: counted from now on in thread %llu (%llu calls of %llu ticks "
          "on average)",
       N->Fn->Name ? N->Fn->Name : "?", (unsigned long long)GetTid(),
       (unsigned long long)Calls,
       (unsigned long long)(Active > 0 ? u64(Active) / Calls : 0));
}

namespace {
void RestartThreadCounts(ThreadTls &, ThreadState *TS, u64) {
  ResetThreadCountsAfterFork(TS);
}

// Into's array for From's array A (its module, or the PIC modules' one).
u64 *FoldTarget(ThreadState &Into, const CountArray &A) {
  u64 *Found = nullptr;
  Into.Counts.ForEach([&](const CountArray &E) {
    if (E.Module == A.Module)
      Found = E.Counts;
  });
  if (Found)
    return Found;
  u64 *New = A.Module ? NewModuleArray(&Into, A.Module->NumFuncs)
                      : (u64 *)MmapNoReserveOrDie(
                            uptr(kMaxSharedSlots) * sizeof(u64),
                            "ActiveTime call counts");
  Append(Into.Counts, {A.Module, nullptr, New});
  return New;
}

// Called on From's own thread as it finishes: its pointers go to the
// discard array first (instrumented code in later TLS destructors must not
// write into freed arrays), then its counts into Into's and its arrays away.
void FoldThreadCounts(ThreadState &Into, ThreadState &From, const u32 *, u32) {
  u32 SharedN = __atomic_load_n(&shared_slots_in_use, __ATOMIC_ACQUIRE);
  From.Counts.ForEach([&](const CountArray &A) {
    __atomic_store_n(A.Slot, Discard(kDiscardSlots), __ATOMIC_SEQ_CST);
    u64 *To = FoldTarget(Into, A);
    uptr N = A.Module ? A.Module->NumFuncs : SharedN;
    for (uptr I = 0; I < N; ++I) {
      u64 V = A.Counts[I];
      if (V)
        To[I] = (((To[I] & ~kCountedBit) + (V & ~kCountedBit)) & ~kCountedBit) |
                ((To[I] | V) & kCountedBit);
    }
    if (!A.Module)
      UnmapOrDie(A.Counts, uptr(kMaxSharedSlots) * sizeof(u64));
  });
  for (CountArrays::Chunk *C = From.Counts.First.Next, *Next; C; C = Next) {
    Next = C->Next;
    UnmapOrDie(C, sizeof(CountArrays::Chunk));
  }
  // The newest chunk is written up to the arena's pointer.
  for (void *C = From.CountChunks, *Next; C; C = Next) {
    Next = ((void **)C)[0];
    uptr Bytes = ((uptr *)C)[1];
    Recycle(C, Bytes,
            C == From.CountChunks ? uptr(From.CountArena - (char *)C) : Bytes);
  }
  From.CountChunks = nullptr;
}

void FillCountsProcessRecord(raw::ProcessRecord &R) {
  R.TimingThreshold = TimingThreshold();
}

// The thread's calls by function id, from its counter arrays (a live
// thread may be one call ahead; aligned words are never torn).
u32 WriteCountRecords(OutBuffer *B, const ThreadState &TS, const u32 *, u32) {
  u32 Num = 0;
  for (uptr M = 0; M < NumModules(); ++M) {
    const ModuleInfo *MI = GetModule(M);
    const u64 *C = ThreadCounters(&TS, MI);
    for (u32 I = 0; C && I < MI->NumFuncs; ++I) {
      AT_TSAN_IGNORE_READS_BEGIN();
      u64 V = __atomic_load_n(&C[I], __ATOMIC_RELAXED);
      AT_TSAN_IGNORE_READS_END();
      u64 Calls = V & ~kCountedBit;
      if (!Calls)
        continue;
      raw::CountRecord R = {MI->FirstId + I,
                            (V & kCountedBit) ? raw::CR_Counted : 0, Calls};
      B->Append(&R, sizeof(R));
      ++Num;
    }
  }
  return Num;
}
} // namespace

const Collector kCountsCollector = {
    .Name = "counts",
    .Order = 40,
    .Init = InitTiming,
    .ThreadAfterForkChild = RestartThreadCounts,
    .ThreadFold = FoldThreadCounts,
    .FillProcess = FillCountsProcessRecord,
    .WriteThreadRecords = WriteCountRecords,
    .NumThreadRecords = &raw::ThreadRecord::NumCounts,
};
AT_REGISTER_COLLECTOR(kCountsCollector);

} // namespace __activetime
