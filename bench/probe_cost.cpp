//===- probe_cost.cpp - ActiveTime probe cost micro-benchmark -------------===//
//
// Prints, measured side by side in one run (several repetitions, min and
// median), the cost of:
//   call    : one call of a noinline empty function (uninstrumented)
//   2 ticks : two timestamp reads (the tick the runtime uses)
//   floor   : two timestamp reads + push/pop of a thread-local array stack
//   floor, measured: four timestamp reads + push/pop: the floor of probes
//             that each time their own work (a read where it starts and one
//             where it ends), which is how the runtime's probes charge their
//             cost
//   floor+  : the same plus what active time adds to a frame: snapshots of
//             three cumulative counters at entry, their differences at exit
//             and the switch check (one load + compare of a ring head)
//   floor+ called: the same work in two noinline functions (enter, exit):
//             the cost of calling instead of inlining it
//   probes  : __activetime_func_enter + __activetime_func_exit, called
//             directly with a registered fake module, steady state; once for
//             the same callee repeatedly and once for 8 rotating callees
//             under one parent.
//
// Usage: activetime-bench-probe-cost [REPETITIONS [ITERATIONS]] (7 and
// 5,000,000). ACTIVETIME_OPTIONS applies (write_profile=0 unless set): with
// mode=trace the probe rows show the trace-mode probes, writing their events
// while trace_buffer_events leaves room for all of them (2 per iteration per
// probe row and pass, 2 x (REPETITIONS + 1) passes), dropping them after.
//
//===----------------------------------------------------------------------===//

#include "activetime/abi.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <time.h>
#include <vector>

using activetime::abi::FuncDesc;
using activetime::abi::ModuleDesc;

extern "C" {
void __activetime_func_enter(const FuncDesc *, void *);
void __activetime_func_exit(const FuncDesc *, void *);
void __activetime_register_module(ModuleDesc *);
}

static inline uint64_t Tick() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  uint64_t V;
  __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(V));
  return V;
#else
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000u + T.tv_nsec;
#endif
}

static double NowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return double(T.tv_sec) * 1e9 + double(T.tv_nsec);
}

__attribute__((noinline)) void EmptyFunction() { __asm__ __volatile__(""); }

static void Dummy() {}
static FuncDesc Funcs[9] = {
    {(const void *)Dummy, "parent", "bench.cpp", 1, 0},
    {(const void *)Dummy, "f1", "bench.cpp", 2, 0},
    {(const void *)Dummy, "f2", "bench.cpp", 3, 0},
    {(const void *)Dummy, "f3", "bench.cpp", 4, 0},
    {(const void *)Dummy, "f4", "bench.cpp", 5, 0},
    {(const void *)Dummy, "f5", "bench.cpp", 6, 0},
    {(const void *)Dummy, "f6", "bench.cpp", 7, 0},
    {(const void *)Dummy, "f7", "bench.cpp", 8, 0},
    {(const void *)Dummy, "f8", "bench.cpp", 9, 0},
};
static ModuleDesc Module = {activetime::abi::kAbiVersion, 9, Funcs, "bench.cpp", 0, nullptr};

struct FloorStack {
  uint64_t Slots[1024];
  unsigned Depth;
};
static thread_local FloorStack floor_stack;

struct FloorFrame {
  uint64_t Start, Ovh, Off, Sw;
};
struct FloorPlus {
  FloorFrame Slots[1024];
  unsigned Depth;
  uint64_t Ovh, Off, Sw, Head, TailSeen, Acc[3], El;
};
static thread_local FloorPlus floor_plus;

static volatile uint64_t sink;
static long kIters = 5000000;

static double RunCall() {
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I)
    EmptyFunction();
  return (NowNs() - T0) / kIters;
}

static double RunTicks() {
  uint64_t Acc = 0;
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    uint64_t A = Tick();
    uint64_t B = Tick();
    Acc += B - A;
    __asm__ __volatile__("" ::: "memory");
  }
  double R = (NowNs() - T0) / kIters;
  sink = Acc;
  return R;
}

static double RunFloor() {
  uint64_t Acc = 0;
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    FloorStack &S = floor_stack;
    S.Slots[S.Depth++ & 1023] = Tick();
    __asm__ __volatile__("" ::: "memory");
    uint64_t Now = Tick();
    Acc += Now - S.Slots[--S.Depth & 1023];
    __asm__ __volatile__("" ::: "memory");
  }
  double R = (NowNs() - T0) / kIters;
  sink = Acc;
  return R;
}

static double RunFloorMeasured() {
  uint64_t Acc = 0;
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    FloorStack &S = floor_stack;
    uint64_t Start = Tick();
    S.Slots[S.Depth++ & 1023] = Start;
    Acc += Tick() - Start;
    __asm__ __volatile__("" ::: "memory");
    uint64_t Now = Tick();
    Acc += Now - S.Slots[--S.Depth & 1023];
    Acc += Tick() - Now;
    __asm__ __volatile__("" ::: "memory");
  }
  double R = (NowNs() - T0) / kIters;
  sink = Acc;
  return R;
}

// floor+ work of one entry and one exit; the exit returns the elapsed ticks.
__attribute__((always_inline)) static inline void FloorPlusEnterBody() {
  FloorPlus &S = floor_plus;
  uint64_t Now = Tick();
  if (__builtin_expect(*(volatile uint64_t *)&S.Head != S.TailSeen, 0))
    S.TailSeen = S.Head;
  FloorFrame &F = S.Slots[S.Depth++ & 1023];
  F.Start = Now;
  F.Ovh = S.Ovh;
  F.Off = S.Off;
  F.Sw = S.Sw;
  S.Ovh += 7;
}

__attribute__((always_inline)) static inline uint64_t FloorPlusExitBody() {
  FloorPlus &S = floor_plus;
  uint64_t Now = Tick();
  if (__builtin_expect(*(volatile uint64_t *)&S.Head != S.TailSeen, 0))
    S.TailSeen = S.Head;
  FloorFrame &G = S.Slots[--S.Depth & 1023];
  S.Acc[0] += S.Ovh - G.Ovh;
  S.Acc[1] += S.Off - G.Off;
  S.Acc[2] += S.Sw - G.Sw;
  S.Ovh += 5;
  return Now - G.Start;
}

static double RunFloorPlus() {
  uint64_t Acc = 0;
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    FloorPlusEnterBody();
    __asm__ __volatile__("" ::: "memory");
    Acc += FloorPlusExitBody();
    __asm__ __volatile__("" ::: "memory");
  }
  double R = (NowNs() - T0) / kIters;
  sink = Acc;
  return R;
}

// floor+ split into an entry and an exit function called out of line: what
// calling the probe instead of inlining the same work into the instrumented
// function costs (the most an inlined fast path could save).
__attribute__((noinline)) static void FloorPlusEnter() { FloorPlusEnterBody(); }

__attribute__((noinline)) static void FloorPlusExit() {
  floor_plus.El += FloorPlusExitBody();
}

static double RunFloorPlusCalled() {
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    FloorPlusEnter();
    __asm__ __volatile__("" ::: "memory");
    FloorPlusExit();
    __asm__ __volatile__("" ::: "memory");
  }
  double R = (NowNs() - T0) / kIters;
  sink = floor_plus.El;
  return R;
}

static double RunProbesSame() {
  char *ParentFrame = (char *)__builtin_frame_address(0);
  // A slot below the parent's frame holding a fixed return address: one
  // call site, as a loop calling the same function has.
  volatile uintptr_t Slot[1] = {0};
  void *Frame = (void *)Slot;
  __activetime_func_enter(&Funcs[0], ParentFrame);
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    __activetime_func_enter(&Funcs[1], Frame);
    __activetime_func_exit(&Funcs[1], Frame);
  }
  double R = (NowNs() - T0) / kIters;
  __activetime_func_exit(&Funcs[0], ParentFrame);
  return R;
}

static double RunProbesRotating() {
  char *ParentFrame = (char *)__builtin_frame_address(0);
  // A slot below the parent's frame holding a fixed return address: one
  // call site, as a loop calling the same function has.
  volatile uintptr_t Slot[1] = {0};
  void *Frame = (void *)Slot;
  __activetime_func_enter(&Funcs[0], ParentFrame);
  double T0 = NowNs();
  for (long I = 0; I < kIters; ++I) {
    const FuncDesc *F = &Funcs[1 + (I & 7)];
    __activetime_func_enter(F, Frame);
    __activetime_func_exit(F, Frame);
  }
  double R = (NowNs() - T0) / kIters;
  __activetime_func_exit(&Funcs[0], ParentFrame);
  return R;
}

int main(int argc, char **argv) {
  int Reps = argc > 1 ? atoi(argv[1]) : 7;
  if (Reps < 1)
    Reps = 1;
  if (argc > 2 && atol(argv[2]) > 0)
    kIters = atol(argv[2]);
  // The benchmark's own profile is of no interest.
  setenv("ACTIVETIME_OPTIONS", "write_profile=0", 0);
  __activetime_register_module(&Module);

  struct Row {
    const char *Name;
    double (*Fn)();
    std::vector<double> V;
  } Rows[] = {
      {"noinline empty call", RunCall, {}},
      {"2 timestamp reads", RunTicks, {}},
      {"floor: 2 reads + TLS stack push/pop", RunFloor, {}},
      {"floor, measured: 4 reads + push/pop", RunFloorMeasured, {}},
      {"floor+: with active-time bookkeeping", RunFloorPlus, {}},
      {"floor+ in 2 out-of-line calls", RunFloorPlusCalled, {}},
      {"enter+exit, same callee", RunProbesSame, {}},
      {"enter+exit, 8 rotating callees", RunProbesRotating, {}},
  };
  for (Row &R : Rows) // warm-up (creates the thread state and nodes)
    R.Fn();
  for (int Rep = 0; Rep < Reps; ++Rep) // interleaved: side by side
    for (Row &R : Rows)
      R.V.push_back(R.Fn());

  printf("ActiveTime probe cost (%d repetitions x %ld iterations, ns per op)\n", Reps,
         kIters);
  printf("%-40s %8s %8s\n", "measurement", "min", "median");
  double FloorMed = 0, MeasuredMed = 0;
  for (Row &R : Rows) {
    std::sort(R.V.begin(), R.V.end());
    double Med = R.V[R.V.size() / 2];
    if (R.Fn == RunFloor)
      FloorMed = Med;
    if (R.Fn == RunFloorMeasured)
      MeasuredMed = Med;
    printf("%-40s %8.2f %8.2f\n", R.Name, R.V.front(), Med);
  }
  for (Row &R : Rows)
    if (R.Fn == RunProbesSame || R.Fn == RunProbesRotating) {
      double Med = R.V[R.V.size() / 2];
      printf("%-40s %8.2f x floor, %.2f x measured floor (medians)\n",
             R.Name, FloorMed > 0 ? Med / FloorMed : 0.0,
             MeasuredMed > 0 ? Med / MeasuredMed : 0.0);
    }
  return 0;
}
