//===- activetime_timer.cpp - ActiveTime tick source ------------*- C++ -*-===//

#include "activetime_timer.h"

#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <time.h>

namespace __activetime {

namespace {
struct TimerState {
  u64 Tick0;
  u64 RawNs0;
};
TimerState timer;

constexpr int kClockRealtime = 0;
constexpr int kClockMonotonic = 1;
constexpr int kClockThreadCputime = 3;
constexpr int kClockMonotonicRaw = 4;

u64 ClockNs(int Clock) {
  struct {
    long tv_sec;
    long tv_nsec;
  } TS = {0, 0};
  internal_clock_gettime(Clock, &TS);
  return u64(TS.tv_sec) * 1000000000ull + u64(TS.tv_nsec);
}

// Reads a tick and CLOCK_MONOTONIC_RAW as close together as possible (the
// pair with the shortest bracket out of a few tries).
// Best of 5 brackets: a preemption inside one would put its midpoint far
// from the instant the clock was read.
void ReadPair(u64 *Tick, u64 *Ns) {
  u64 Best = ~0ull;
  for (int I = 0; I < 5; ++I) {
    u64 A = ReadTick();
    u64 N = ClockNs(kClockMonotonicRaw);
    u64 B = ReadTick();
    if (B - A < Best) {
      Best = B - A;
      *Tick = A + (B - A) / 2;
      *Ns = N;
    }
  }
}
} // namespace

u64 MonotonicNanoTimeFallback() { return ClockNs(kClockMonotonic); }

u64 RealtimeNs() { return ClockNs(kClockRealtime); }

u64 ThreadCpuNs() { return ClockNs(kClockThreadCputime); }

bool ThreadCpuNsOf(u64 Tid, u64 *Ns) {
  // The kernel's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED): ~tid << 3, the
  // per-thread bit (4) and the scheduler clock (2), as pthread_getcpuclockid.
  int Clock = int((~u32(Tid)) << 3) | 4 | 2;
  struct {
    long tv_sec;
    long tv_nsec;
  } TS = {0, 0};
  if (internal_iserror(internal_clock_gettime(Clock, &TS)))
    return false;
  *Ns = u64(TS.tv_sec) * 1000000000ull + u64(TS.tv_nsec);
  return true;
}

void InitTimer() { ReadPair(&timer.Tick0, &timer.RawNs0); }

void ReadTickRawNsPair(u64 *Tick, u64 *RawNs) { ReadPair(Tick, RawNs); }

u64 ProvisionalTickRate() {
#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
  return 1000000000ull;
#else
#if defined(__aarch64__)
  u64 Freq;
  __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(Freq));
  if (Freq)
    return Freq;
#endif
  // A single bracket preempted in the middle skewed the rate by percents
  // early in a run (off-CPU intervals converted with it then exceeded
  // their frames); the best of several brackets does not.
  u64 Tick, Ns;
  ReadPair(&Tick, &Ns);
  if (Ns <= timer.RawNs0 || Tick <= timer.Tick0)
    return 1000000000ull;
  unsigned __int128 Num = (unsigned __int128)(Tick - timer.Tick0) * 1000000000ull;
  u64 Rate = (u64)(Num / (Ns - timer.RawNs0));
  return Rate ? Rate : 1;
#endif
}

u64 CalibrateTickRate(int MinMs) {
#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
  return 1000000000ull;
#else
  u64 Tick, Ns;
  u64 MinNs = u64(MinMs) * 1000000ull;
  for (;;) {
    ReadPair(&Tick, &Ns);
    if (Ns - timer.RawNs0 >= MinNs && Ns > timer.RawNs0)
      break;
  }
#if defined(__aarch64__)
  u64 Freq;
  __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(Freq));
  if (Freq)
    return Freq;
#endif
  unsigned __int128 Num = (unsigned __int128)(Tick - timer.Tick0) * 1000000000ull;
  u64 Rate = (u64)(Num / (Ns - timer.RawNs0));
  return Rate ? Rate : 1;
#endif
}

u64 TickStep256FromDeltas(const u16 *Count, u32 N) {
  // Runs of adjacent values seen at least twice (a pair of reads hit by an
  // interrupt gives a stray value once); their centers in ticks * 256.
  constexpr u32 kMaxRuns = 64;
  u64 Center[kMaxRuns];
  u32 Runs = 0, MaxWidth = 0;
  for (u32 D = 1; D < N;) {
    if (Count[D] < 2) {
      ++D;
      continue;
    }
    u32 First = D;
    while (D < N && Count[D] >= 2)
      ++D;
    if (Runs == kMaxRuns)
      return 256;
    Center[Runs++] = (u64(First) + (D - 1)) * 128;
    MaxWidth = D - First > MaxWidth ? D - First : MaxWidth;
  }
  if (Runs < 3)
    return 256;
  u64 Gap = ~0ull;
  for (u32 I = 1; I < Runs; ++I)
    Gap = Center[I] - Center[I - 1] < Gap ? Center[I] - Center[I - 1] : Gap;
  // A lattice only if its runs stand clearly apart: a fine counter read
  // around a delay that grows in coarse increments would leave narrow gaps.
  if (Gap < 4 * 256 || Gap < 3 * 256 * u64(MaxWidth))
    return 256;
  u64 Span = Center[Runs - 1] - Center[0];
  u64 Steps = (Span + Gap / 2) / Gap;
  u64 Step = Span / Steps;
  // Every run must sit on the lattice (within a quarter step).
  for (u32 I = 0; I < Runs; ++I) {
    u64 Off = (Center[I] - Center[0]) % Step;
    if (Off > Step / 4 && Step - Off > Step / 4)
      return 256;
  }
  return Step;
}

u64 MeasureTickStep256() {
#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
  return 0;
#else
  constexpr u32 kMaxDelta = 1024;
  u16 Count[kMaxDelta];
  internal_memset(Count, 0, sizeof(Count));
  for (u32 Rep = 0; Rep < 2; ++Rep)
    for (u32 K = 0; K < 256; ++K) {
      ProbeFence();
      u64 A = ReadTick();
      u64 X = A;
      for (u32 I = 0; I < K; ++I) {
        X += 1;
        __asm__ __volatile__("" : "+r"(X));
      }
      ProbeFence(); // waits for the delay chain
      u64 B = ReadTick();
      __asm__ __volatile__("" ::"r"(X));
      if (B - A < kMaxDelta)
        Count[B - A]++;
    }
  return TickStep256FromDeltas(Count, kMaxDelta);
#endif
}

} // namespace __activetime
