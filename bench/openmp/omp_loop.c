//===- omp_loop.c - Workload for the OpenMP analysis overhead benchmark ---===//
//
// Part of ActiveTime. A well-tuned parallel loop (static schedule, one block
// per thread, ~1 ms of work per region) entered many times, so the per-region
// OMPT events are exercised as often as a real program would. Built with and
// without the plugin by run.py; prints "elapsed_ns <n> checksum <x>".
//
//===----------------------------------------------------------------------===//

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kN = 1 << 17 };
static double x[kN], y[kN];

__attribute__((noinline)) static void step(double a) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < kN; ++i)
    y[i] = a * x[i] + y[i] * 0.5;
}

int main(int argc, char **argv) {
  int regions = argc > 1 ? atoi(argv[1]) : 4000;
  for (int i = 0; i < kN; ++i) {
    x[i] = i * 1e-3;
    y[i] = 1.0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int r = 0; r < regions; ++r)
    step(1.0 + r * 1e-6);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (int i = 0; i < kN; ++i)
    sum += y[i];
  printf("elapsed_ns %lld checksum %.6e\n",
         (long long)((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec)),
         sum);
  return 0;
}
