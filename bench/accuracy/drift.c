//===- drift.c - Does the probes' cost move within one process? ------------===//
//
// Part of ActiveTime. The accuracy bench's deep call path (8 levels, 16 probe
// events per iteration), run in 16 chunks of 20,000 iterations; each chunk is
// timed with the TSC around the instrumented call (probes included) and
// printed in ticks per iteration. The uninstrumented path costs ~148 ticks
// per iteration here, so the rest is the probes. Build with the plugin and run
// with ACTIVETIME_OPTIONS=probe_fence=1:write_profile=0 (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink;

static inline uint64_t mix(uint64_t x, int n) {
  for (int i = 0; i < n; ++i) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
  }
  return x;
}

NOINLINE void d8(uint64_t i) { sink = mix(sink + i, 8); }
#define LEVEL(N, NEXT)                                                         \
  NOINLINE void N(uint64_t i) {                                                \
    NEXT(i);                                                                   \
    sink = mix(sink, 4);                                                       \
  }
LEVEL(d7, d8)
LEVEL(d6, d7)
LEVEL(d5, d6)
LEVEL(d4, d5)
LEVEL(d3, d4)
LEVEL(d2, d3)
LEVEL(d1, d2)

NOINLINE void deep_parent(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    d1(i);
}

__attribute__((no_instrument_function)) int main(void) {
  for (int c = 0; c < 16; ++c) {
    uint64_t t0 = __rdtsc();
    deep_parent(20000);
    printf("%.0f ", (double)(__rdtsc() - t0) / 20000);
  }
  printf("\n");
  return 0;
}
