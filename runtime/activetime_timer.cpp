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

} // namespace __activetime
