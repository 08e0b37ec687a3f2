//===- activetime_thread.cpp - Per-thread state and registry ----*- C++ -*-===//

#include "activetime_thread.h"

#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_sampler.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <limits.h>
#include <pthread.h>

#ifndef PTHREAD_DESTRUCTOR_ITERATIONS
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#endif

namespace __activetime {

THREADLOCAL ThreadTls at_tls __attribute__((tls_model("initial-exec")));

namespace {
Mutex registry_mu;
ThreadState *thread_head;
ThreadState *thread_tail;
pthread_key_t thread_key;

constexpr int kPrGetName = 16; // PR_GET_NAME

void ReadThreadName(char *Name) {
  char Buf[17];
  internal_memset(Buf, 0, sizeof(Buf));
  internal_prctl(kPrGetName, uptr(Buf), 0, 0, 0);
  internal_memcpy(Name, Buf, 16);
}

// Re-arm until the last destructor round so that probes in TLS destructors
// that run after ours still count. Under TSan, TSan's own key (older than
// ours, so its destructor runs first in a round) tears the thread's TSan
// state down in the last round and instrumented code must not run after
// that: finish one round earlier there.
#if ACTIVETIME_TSAN
constexpr uptr kFinishRound = PTHREAD_DESTRUCTOR_ITERATIONS - 1;
#else
constexpr uptr kFinishRound = PTHREAD_DESTRUCTOR_ITERATIONS;
#endif

void ThreadKeyDestructor(void *V) {
  uptr Iter = uptr(V);
  if (Iter < kFinishRound) {
    pthread_setspecific(thread_key, (void *)(Iter + 1));
    return;
  }
  FinishCurrentThread(ReadTick());
}

// 1 us: far above any probe's usual cost, far below a time slice.
u32 LongProbeTicks() {
  u64 Rate = ProvisionalTickRate();
  u64 Ticks = Rate ? Rate / 1000000 : 4096;
  return Ticks > 0xffffffffull ? 0xffffffffu : u32(Ticks ? Ticks : 1);
}

void FreeStacks(ThreadState *TS, Frame *Cur, u32 Cap) {
  if (Cur)
    UnmapOrDie(Cur, RoundUpTo(Cap * sizeof(Frame), GetPageSizeCached()));
  for (int I = 0; I < TS->NumOldStacks; ++I)
    UnmapOrDie(TS->OldStacks[I], TS->OldStackBytes[I]);
  TS->NumOldStacks = 0;
}
} // namespace

void InitThreadRegistry() {
  if (pthread_key_create(&thread_key, ThreadKeyDestructor) != 0) {
    Printf("ActiveTime: ERROR: pthread_key_create failed; thread exits will "
           "not be recorded\n");
  }
}

void LockThreadRegistry() { registry_mu.Lock(); }
bool TryLockThreadRegistry() { return registry_mu.TryLock(); }
void UnlockThreadRegistry() { registry_mu.Unlock(); }
ThreadState *ThreadListHead() { return thread_head; }
ThreadState *ThreadListHeadAcquire() {
  return __atomic_load_n(&thread_head, __ATOMIC_ACQUIRE);
}

bool InitCurrentThread(u64 Now) {
  ThreadTls &T = at_tls;
  if (T.Dead)
    return false;
  EnsureInit();
  uptr Bytes = RoundUpTo(sizeof(ThreadState), GetPageSizeCached());
  ThreadState *TS = (ThreadState *)MmapOrDie(Bytes, "ActiveTime thread state");
  TS->Tls = &T;
  TS->Tree.Init();
  TS->Tid = GetTid();
  TS->StartTick = Now;
  TS->StartCpuNs = ThreadCpuNs();
  ReadThreadName(TS->Name);
  u32 Cap = (u32)flags()->initial_stack_frames;
  Frame *Stk = (Frame *)MmapOrDie(
      RoundUpTo(Cap * sizeof(Frame), GetPageSizeCached()), "ActiveTime shadow stack");
  Stk[0].Fn = nullptr;
  Stk[0].Addr = ~uptr(0);
  Stk[0].StartTick = Now;
  Stk[0].ChildTicks = 0;
  Stk[0].N = TS->Tree.At(0);
  Stk[0].OvhAtEntry = Stk[0].OffAtEntry = Stk[0].SwAtEntry = 0;
  Stk[0].NodeIdx = 0;
  T.Stack = Stk;
  T.Tree = &TS->Tree;
  T.TS = TS;
  T.Depth = 1;
  T.Ovh = T.Off = T.Sw = 0;
  T.Enter256 = runtime.Overhead.Enter256;
  T.Exit256 = runtime.Overhead.Exit256;
  TS->LongProbeTicks = LongProbeTicks();
  T.LongProbe = TS->LongProbeTicks;
  T.Trace = 0;
  if (flags()->mode == RunMode::Trace) {
    OpenTraceBuffers(TS->Trace);
    T.Trace = 1;
    T.LongProbe = 0;
  }
  OpenThreadSwitchSource(T, TS, Now);
  OpenThreadCodeSamples(T, TS);
  {
    Lock L(&registry_mu);
    // Release: the sampler walks the list without the lock.
    if (thread_tail)
      __atomic_store_n(&thread_tail->Next, TS, __ATOMIC_RELEASE);
    else
      __atomic_store_n(&thread_head, TS, __ATOMIC_RELEASE);
    thread_tail = TS;
  }
  pthread_setspecific(thread_key, (void *)1);
  // Last, with release: enables the fast path, and tells the sampler (which
  // found TS in the list before this) that the stack is there.
  __atomic_store_n(&T.Capacity, Cap, __ATOMIC_RELEASE);
  VLog(2, "thread %llu (%s) started", (unsigned long long)TS->Tid, TS->Name);
  return true;
}

void GrowStack(ThreadTls &T) {
  ThreadState *TS = T.TS;
  u32 OldCap = T.Capacity;
  CHECK_LT(OldCap, 0x40000000u);
  u32 NewCap = OldCap * 2;
  uptr PS = GetPageSizeCached();
  Frame *N = (Frame *)MmapOrDie(RoundUpTo(NewCap * sizeof(Frame), PS),
                                "ActiveTime shadow stack");
  internal_memcpy(N, T.Stack, T.Depth * sizeof(Frame));
  // The old array is kept until the thread finishes: the exit-time writer
  // on another thread may be reading it.
  if (TS->NumOldStacks < ThreadState::kMaxOldStacks) {
    TS->OldStacks[TS->NumOldStacks] = T.Stack;
    TS->OldStackBytes[TS->NumOldStacks] = RoundUpTo(OldCap * sizeof(Frame), PS);
    TS->NumOldStacks++;
  }
  // Release stores: the sampler reads Capacity, then Stack (Snapshot).
  __atomic_store_n(&T.Stack, N, __ATOMIC_RELEASE);
  __atomic_store_n(&T.Capacity, NewCap, __ATOMIC_RELEASE);
}

void FinishCurrentThread(u64 Now) {
  ThreadTls &T = at_tls;
  ThreadState *TS = T.TS;
  if (!TS || T.Dead)
    return;
  if (!ProcessIsOurs()) { // the registry's lock may be the parent's
    AbandonProcess(T);
    T.Dead = 1;
    return;
  }
  T.Seq++;
  AT_BARRIER();
  SamplerWaitThreadLeaving(TS);
  // Outside the registry lock: draining code samples takes the loader's.
  CloseThreadCodeSamples(T, TS, /*Drain=*/true);
  Lock L(&registry_mu);
  // Remaining switch records first (intervals up to Now), then the frames
  // still open at thread exit (pthread_exit, cancellation, forced unwind):
  // closed now, counted as unwound.
  CloseThreadSwitchSource(T, TS, /*Drain=*/true, Now);
  Frame *Stk = T.Stack;
  TS->UnwoundFrames += CloseOpenFrames(T, Now);
  TS->FinalOff = T.Off;
  TS->FinalSw = T.Sw;
  TS->FinalCpuNs = ThreadCpuNs();
  ReadThreadName(TS->Name);
  TS->EndTick = Now;
  TS->Finished = true;
  u32 Cap = T.Capacity;
  T.Capacity = 0;
  T.Depth = 0;
  T.Dead = 1;
  T.Stack = nullptr;
  FreeStacks(TS, Stk, Cap);
  TS->Tree.ReleaseIndex();
  TS->Tls = nullptr;
  VLog(2, "thread %llu finished", (unsigned long long)TS->Tid);
  AT_BARRIER();
  T.Seq++;
}

void ThreadRegistryAfterForkChild(u64 Now) {
  // Called with registry_mu held (pthread_atfork prepare). Other threads do
  // not exist in the child; finished ones belong to the parent's profile.
  ThreadTls &T = at_tls;
  ThreadState *TS = T.Dead ? nullptr : T.TS;
  thread_head = thread_tail = TS;
  if (!TS)
    return;
  TS->Next = nullptr;
  TS->Tid = GetTid();
  TS->StartTick = Now;
  TS->StartCpuNs = ThreadCpuNs();
  TS->UnmatchedExits = TS->UnwoundFrames = TS->DroppedEvents = 0;
  TS->Tree.ResetStats();
  ResetThreadCountsAfterFork(TS);
  T.Ovh = T.Off = T.Sw = 0;
  for (u32 I = 0; I < T.Depth; ++I) {
    T.Stack[I].StartTick = Now;
    T.Stack[I].ChildTicks = 0;
    T.Stack[I].OvhAtEntry = T.Stack[I].OffAtEntry = T.Stack[I].SwAtEntry = 0;
  }
  ResetTraceBuffersAfterFork(TS->Trace);
  // The inherited perf event watches the parent's thread: close it (and its
  // mapping) and watch this one.
  CloseThreadSwitchSource(T, TS, /*Drain=*/false, Now);
  OpenThreadSwitchSource(T, TS, Now);
  CloseThreadCodeSamples(T, TS, /*Drain=*/false);
  internal_memset(&TS->Code, 0, sizeof(TS->Code));
  OpenThreadCodeSamples(T, TS);
}

void ResetThreadsForTesting() {
  ThreadTls &T = at_tls;
  if (T.TS && !T.Dead) {
    CloseThreadSwitchSource(T, T.TS, /*Drain=*/false, 0);
    CloseThreadCodeSamples(T, T.TS, /*Drain=*/false);
  }
  Lock L(&registry_mu);
  thread_head = thread_tail = nullptr;
  internal_memset(&T, 0, sizeof(T));
}

} // namespace __activetime
