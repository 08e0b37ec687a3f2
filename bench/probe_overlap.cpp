//===- probe_overlap.cpp - Probe cost as a function of the callee's body --===//
//
// Part of ActiveTime. What one instrumented call adds to its caller, for
// leaves whose body is a dependent chain of L multiply/xorshift steps, next
// to the same leaf uninstrumented. The tick read does not serialize, so an
// out-of-order core hides part of the probes behind the body's latency: the
// added cost falls as L grows. This curve is why the overhead table is
// calibrated around a body as long as the probe pair (docs/design.md).
// Probes are called directly, as the pass emits them.
//
//===----------------------------------------------------------------------===//

#include "activetime/abi.h"

#include <cstdint>
#include <cstdio>
#include <x86intrin.h>

using activetime::abi::FuncDesc;
extern "C" void __activetime_func_enter(const FuncDesc *, void *);
extern "C" void __activetime_func_exit(const FuncDesc *, void *);

static FuncDesc Desc = {nullptr, "leaf", nullptr, 0, 0};
static volatile uint64_t Sink;

template <int L> static inline uint64_t mix(uint64_t X) {
  for (int I = 0; I < L; ++I) {
    X ^= X >> 29;
    X *= 0xbf58476d1ce4e5b9ull;
  }
  return X;
}

template <int L> __attribute__((noinline)) void plainLeaf(uint64_t I) {
  Sink = mix<L>(Sink + I);
}

template <int L> __attribute__((noinline)) void instrLeaf(uint64_t I) {
  void *F = __builtin_frame_address(0);
  __activetime_func_enter(&Desc, F);
  Sink = mix<L>(Sink + I);
  __activetime_func_exit(&Desc, F);
}

template <int L> static void measure() {
  constexpr int N = 200000;
  uint64_t BestI = ~0ull, BestP = ~0ull;
  for (int R = 0; R < 15; ++R) {
    uint64_t T0 = __rdtsc();
    for (int I = 0; I < N; ++I)
      instrLeaf<L>(I);
    uint64_t T1 = __rdtsc();
    for (int I = 0; I < N; ++I)
      plainLeaf<L>(I);
    uint64_t T2 = __rdtsc();
    if (T1 - T0 < BestI)
      BestI = T1 - T0;
    if (T2 - T1 < BestP)
      BestP = T2 - T1;
  }
  std::printf("%6d %14.1f %14.1f %14.1f\n", L, double(BestP) / N,
              double(BestI) / N, (double(BestI) - double(BestP)) / N);
}

int main() {
  std::printf("ActiveTime probe cost vs callee body (ticks per call, best of 15 x 200000)\n");
  std::printf("%6s %14s %14s %14s\n", "body L", "plain", "instrumented", "added");
  measure<0>();
  measure<2>();
  measure<4>();
  measure<8>();
  measure<16>();
  measure<32>();
  measure<64>();
  return 0;
}
