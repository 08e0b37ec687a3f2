//===- activetime_worker.cpp - The runtime's own threads --------*- C++ -*-===//
//
// See activetime_worker.h.
//
//===----------------------------------------------------------------------===//

#include "activetime_worker.h"
#include "activetime_timer.h"

#include "activetime/raw_format.h"

#include <linux/futex.h>
#include <signal.h>
#include <sys/single_threaded.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace __activetime {

namespace {
constexpr u64 kNsPerSec = 1000000000ull;
constexpr u64 kMeasureAfterNs = 1000000;
u64 measure_from_ns; // CLOCK_MONOTONIC
// When a runtime thread was the first besides the program's one (0: none).
u64 threaded_by_runtime_tick;

void NoteThreadedByRuntime() {
  u64 None = 0;
  __atomic_compare_exchange_n(&threaded_by_runtime_tick, &None, ReadTick(),
                              false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
} // namespace

void MarkProcessStart() {
  __atomic_store_n(&measure_from_ns, MonotonicNs() + kMeasureAfterNs,
                   __ATOMIC_RELAXED);
}

bool MeasureTimeReached() {
  return MonotonicNs() >= __atomic_load_n(&measure_from_ns, __ATOMIC_RELAXED);
}

bool WaitToMeasure(WorkerThread &W) {
  SleepUntil(W, __atomic_load_n(&measure_from_ns, __ATOMIC_RELAXED));
  return !StopRequested(W);
}

u64 MonotonicNs() {
  struct timespec TS = {0, 0};
  clock_gettime(CLOCK_MONOTONIC, &TS);
  return u64(TS.tv_sec) * kNsPerSec + u64(TS.tv_nsec);
}

u32 ThreadedByRuntimeUs(u64 StartTick, u64 EndTick, u64 TickRate) {
  return ThreadedUsOf(
      __atomic_load_n(&threaded_by_runtime_tick, __ATOMIC_RELAXED), StartTick,
      EndTick, TickRate);
}

u32 ThreadedUsOf(u64 T, u64 StartTick, u64 EndTick, u64 TickRate) {
  // After the profile's end (a thread started while it was being written):
  // not in this profile.
  if (!T || T > EndTick)
    return activetime::raw::kNotThreadedByRuntime;
  if (T <= StartTick) // before a fork child's start
    return 0;
  unsigned __int128 Us = (unsigned __int128)(T - StartTick) * 1000000u /
                         (TickRate ? TickRate : 1);
  return Us >= activetime::raw::kNotThreadedByRuntime
             ? activetime::raw::kNotThreadedByRuntime - 1
             : u32(Us);
}

int StartWorker(WorkerThread &W, void *(*Main)(void *)) {
  W.StopWord = 0;
  bool WasSingle = __libc_single_threaded;
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  int R = pthread_create(&W.Thread, nullptr, Main, nullptr);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  W.Running = R == 0;
  if (W.Running && WasSingle)
    NoteThreadedByRuntime();
  return R;
}

bool StopRequested(const WorkerThread &W) {
  return __atomic_load_n(&W.StopWord, __ATOMIC_ACQUIRE) != 0;
}

// Absolute deadlines: a fixed interval does not drift (the sampler's must be
// able to alias, for the comparison bench), a random one stays exponential.
void SleepUntil(WorkerThread &W, u64 DeadlineNs) {
  while (!StopRequested(W) && MonotonicNs() < DeadlineNs) {
    struct timespec Abs;
    Abs.tv_sec = DeadlineNs / kNsPerSec;
    Abs.tv_nsec = DeadlineNs % kNsPerSec;
    syscall(SYS_futex, &W.StopWord, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0,
            &Abs, nullptr, FUTEX_BITSET_MATCH_ANY);
  }
}

void StopWorker(WorkerThread &W) {
  if (!W.Running)
    return;
  __atomic_store_n(&W.StopWord, 1, __ATOMIC_RELEASE);
  syscall(SYS_futex, &W.StopWord, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, nullptr,
          nullptr, 0);
  pthread_join(W.Thread, nullptr);
  W.Running = 0;
}

} // namespace __activetime
