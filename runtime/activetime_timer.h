//===- activetime_timer.h - ActiveTime tick source --------------*- C++ -*-===//
//
// The tick read on the probe hot path: rdtsc on x86-64, cntvct_el0 on
// AArch64, CLOCK_MONOTONIC nanoseconds elsewhere. The tick rate is calibrated
// against CLOCK_MONOTONIC_RAW from the start of the run to the write time (no
// start-up sleep, no exit spin unless min_calibration_ms asks for one): a
// rate over a span S read at both ends to within w is off by at most 2w/S,
// so any duration inside the run is off by at most 2w, however short S.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_TIMER_H
#define ACTIVETIME_TIMER_H

#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {
using namespace __sanitizer;

u64 MonotonicNanoTimeFallback();

// Fenced probes (probe_fence=1) put one fence before the tick read and one
// after their work: the read waits for all earlier code, and later code
// waits for the probe. A probe then never runs in the shadow of the
// program's own latency-bound code, so its cost is the same in every
// function and the start-up overhead table holds everywhere
// (docs/performance.md measures the difference).
ALWAYS_INLINE void ProbeFence() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_lfence(); // dispatch-serializing on Intel and on AMD (Linux)
#elif defined(__aarch64__)
  __asm__ __volatile__("isb" ::: "memory");
#else
  __asm__ __volatile__("" ::: "memory");
#endif
}

ALWAYS_INLINE u64 ReadTick() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  u64 V;
  __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(V));
  return V;
#else
  return MonotonicNanoTimeFallback();
#endif
}

// Records the calibration start (tick + CLOCK_MONOTONIC_RAW). Called at init.
void InitTimer();
// Returns the tick rate (ticks per second) calibrated from InitTimer to now,
// spinning first until at least MinMs milliseconds have passed since
// InitTimer.
u64 CalibrateTickRate(int MinMs);
// The tick rate measured so far (ticks since InitTimer / CLOCK_MONOTONIC_RAW
// ns since InitTimer), without spinning: for the slow paths that convert
// between ns and ticks during the run (switch sources).
u64 ProvisionalTickRate();
// A (tick, CLOCK_MONOTONIC_RAW ns) pair read at one instant (best of a few
// tight brackets).
void ReadTickRawNsPair(u64 *Tick, u64 *RawNs);
// CLOCK_REALTIME in ns since the epoch.
u64 RealtimeNs();
// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) in ns.
u64 ThreadCpuNs();
// The CPU time of thread Tid of this process (CLOCK_THREAD_CPUTIME of
// another thread, through its tid's clock id); false if it cannot be read
// (the thread has exited).
bool ThreadCpuNsOf(u64 Tid, u64 *Ns);

// The step the tick counter advances by, ticks * 256 (0: not measured, on
// the CLOCK_MONOTONIC fallback). Some counters move in steps much coarser
// than their rate: a virtualized AMD EPYC's TSC counts 2.4 GHz but moves
// every 10 ns. Measured at start-up in about 50 us: pairs of fenced reads
// around a delay swept in steps of about one cycle.
u64 MeasureTickStep256();
// The estimate behind it: Count[d] = how many such pairs of reads were d
// ticks apart (d < N). A counter that moves every tick gives one contiguous
// run of values; one that moves in steps of S ticks gives runs one or two
// values wide at multiples of S (S need not be whole). Values seen once are
// ignored. Returns S * 256, or 256 when no such lattice shows.
u64 TickStep256FromDeltas(const u16 *Count, u32 N);

} // namespace __activetime

#endif // ACTIVETIME_TIMER_H
