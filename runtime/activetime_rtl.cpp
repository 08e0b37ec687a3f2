//===- activetime_rtl.cpp - ActiveTime runtime start-up ---------*- C++ -*-===//
//
// One-time initialization (from the first module registration or the first
// probe, whichever comes first), the exit-time writer and fork handling.
//
//===----------------------------------------------------------------------===//

#include "activetime_codesamples.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_flusher.h"
#include "activetime_interface.h"
#include "activetime_internal.h"
#include "activetime_ompt.h"
#include "activetime_module.h"
#include "activetime_output.h"
#include "activetime_sampler.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_writer.h"

#include <pthread.h>
#include <sys/mman.h>

namespace __activetime {

RuntimeState runtime;

namespace {
StaticSpinMutex init_mu;
StaticSpinMutex persistent_mu;
char *persistent_cur;
uptr persistent_left;

void AtExitWriter() {
  // A child made behind the fork handlers: its worker threads' handles
  // are the parent's, and it writes nothing.
  if (!ProcessIsOurs())
    return;
  StopFlusher(); // the last write is this one
  StopSampler(); // its samples end here; it must not read threads any more
  StopCodeSampleDrainer();
  if (flags()->write_profile)
    WriteProfile();
}

void ForkPrepare() {
  LockProfileWrites(); // a write holds the locks below: it goes first
  LockModules();
  LockThreadRegistry();
  persistent_mu.Lock();
  CloseLoaderGateForFork();
}

void ForkParent() {
  OpenLoaderGateAfterFork();
  persistent_mu.Unlock();
  UnlockThreadRegistry();
  UnlockModules();
  UnlockProfileWrites();
}

void ForkChild() {
  OpenLoaderGateAfterFork();
  ReopenProbeGateAfterFork();
  // The child's profile holds only post-fork time.
  u64 Now = ReadTick();
  runtime.Pid = (u32)internal_getpid();
  runtime.StartTick = Now;
  runtime.StartUnixNs = RealtimeNs();
  runtime.ForkedChild = true;
  ThreadRegistryAfterForkChild(Now);
  OmptAfterForkChild();
  persistent_mu.Unlock();
  UnlockThreadRegistry();
  UnlockModules();
  UnlockProfileWrites();
  SamplerAfterForkChild();
  CodeSamplesAfterForkChild();
  FlusherAfterForkChild();
}
} // namespace

#if ACTIVETIME_TSAN
void UnmapOrDie(void *Addr, uptr Size) {
  if (!Addr || !Size)
    return;
  if (munmap(Addr, Size) != 0) {
    Printf("ActiveTime: ERROR: munmap(%p, %zu) failed\n", Addr, (usize)Size);
    Die();
  }
}
#endif

void *PersistentAlloc(uptr Size) {
  Size = RoundUpTo(Size ? Size : 1, 16);
  if (Size > 16384)
    return MmapOrDie(Size, "ActiveTime persistent");
  SpinMutexLock L(&persistent_mu);
  if (Size > persistent_left) {
    const uptr kChunk = 1 << 16;
    persistent_cur = (char *)MmapOrDie(kChunk, "ActiveTime persistent");
    persistent_left = kChunk;
  }
  void *P = persistent_cur;
  persistent_cur += Size;
  persistent_left -= Size;
  return P;
}

char *PersistentStrdup(const char *S) {
  uptr N = internal_strlen(S);
  char *D = (char *)PersistentAlloc(N + 1);
  internal_memcpy(D, S, N + 1);
  return D;
}

// The gate's page is zeroed in every child process (it is page-aligned
// .bss, an anonymous mapping); before Linux 4.14 it is not, and a child
// made behind the fork handlers is not told apart.
static void OpenProbeGate() {
  madvise(&probe_gate, sizeof(probe_gate), MADV_WIPEONFORK);
  __atomic_fetch_or(&probe_gate.State, kGateOurs, __ATOMIC_RELEASE);
}

void AbandonProcess(ThreadTls &T) {
  if (runtime.Abandoned)
    return;
  runtime.Abandoned = true;
  VLog(1, "process %u was made by clone() without the fork handlers: it is "
          "not profiled", (u32)internal_getpid());
  DetachThreadRings(T);
}

void InitRuntimeSlow() {
  SpinMutexLock L(&init_mu);
  if (atomic_load(&runtime.Initialized, memory_order_acquire))
    return;
  OpenProbeGate();
  SanitizerToolName = "ActiveTime";
  InitializeFlags();
  CheckOutputAtStartup();
  InitTimer();
  runtime.TickStep256 = MeasureTickStep256();
  InitOverheadTable(); // before the first real frame is pushed
  InitCodeSampling();
  InitTiming();
  runtime.Pid = (u32)internal_getpid();
  runtime.StartTick = ReadTick();
  runtime.StartUnixNs = RealtimeNs();
  InitThreadRegistry();
  pthread_atfork(ForkPrepare, ForkParent, ForkChild);
  Atexit(AtExitWriter);
  StartSampler();
  StartCodeSampleDrainer();
  StartFlusher();
  atomic_store(&runtime.Initialized, 1, memory_order_release);
  VLog(2, "runtime initialized in pid %u", runtime.Pid);
}

} // namespace __activetime

using namespace __activetime;

extern "C" int __activetime_write_profile(void) {
  EnsureInit();
  return WriteProfile() ? 0 : -1;
}
