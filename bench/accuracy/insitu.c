//===- insitu.c - In-situ probe cost against the callee's body -------------===//
//
// Part of ActiveTime. For leaves with bodies of L dependent multiply/xorshift
// steps, a loop calling the instrumented leaf and the same loop calling an
// uninstrumented twin (no_instrument_function). The twins are timed here with
// the TSC (best of 5); the instrumented loops are timed by the profile. The
// difference per call is what the probes really add in this code, next to
// what the overhead table (calibrated at start-up) subtracts. See
// insitu.py and docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

#define NOINLINE __attribute__((noinline))
#define PLAIN __attribute__((noinline, no_instrument_function))

static volatile uint64_t sink;

static inline uint64_t mix(uint64_t x, int n) {
  for (int i = 0; i < n; ++i) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
  }
  return x;
}

#define LEAF(L)                                                                \
  NOINLINE void leaf##L(uint64_t i) { sink = mix(sink + i, L); }               \
  PLAIN void twin##L(uint64_t i) { sink = mix(sink + i, L); }                  \
  NOINLINE void loop##L(uint64_t n) {                                          \
    for (uint64_t i = 0; i < n; ++i)                                           \
      leaf##L(i);                                                              \
  }                                                                            \
  PLAIN void twinloop##L(uint64_t n) {                                         \
    for (uint64_t i = 0; i < n; ++i)                                           \
      twin##L(i);                                                              \
  }
LEAF(0) LEAF(2) LEAF(4) LEAF(8) LEAF(12) LEAF(16) LEAF(24) LEAF(32)

enum { kN = 400000, kRuns = 5 };

#define RUN(L)                                                                 \
  do {                                                                         \
    uint64_t best = ~0ull;                                                     \
    for (int r = 0; r < kRuns; ++r) {                                          \
      uint64_t t0 = __rdtsc();                                                 \
      twinloop##L(kN);                                                         \
      uint64_t t = __rdtsc() - t0;                                             \
      best = t < best ? t : best;                                              \
    }                                                                          \
    printf("plain %d %.3f\n", L, (double)best / kN);                           \
    for (int r = 0; r < kRuns; ++r)                                            \
      loop##L(kN);                                                             \
  } while (0)

PLAIN int main(void) {
  printf("calls %d runs %d\n", kN, kRuns);
  RUN(0); RUN(2); RUN(4); RUN(8); RUN(12); RUN(16); RUN(24); RUN(32);
  return 0;
}
