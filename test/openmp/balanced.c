// A well-balanced region: 200 equal iterations handed out one at a time
// (dynamic,1); no diagnosis.
// Relies on: a thread finishing at most about one iteration (~2 ms of CPU)
// after the others, far under 10% of a region of ~0.4 s of work per thread,
// however the OS shares 2 cores among the 4 threads (a static split would let
// an unlucky CPU share show as waiting); 200 takes in ~1.6 thread-seconds are
// far under --max-task-rate=50000.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o balanced
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./balanced
// RUN: %activetime report --parallel --max-task-rate=50000 activetime.balanced.*.raw | FileCheck %s
// CHECK: region balanced.c:[[@LINE+15]] (main)
// CHECK: takes          local 200, stolen 0 (stolen/local 0.00); chunks 200,
// CHECK: diagnosis      none{{$}}
#include <omp.h>

volatile double sink;

static void work(long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += i * 0.5;
  sink += s;
}

int main(void) {
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < 200; ++i)
    work(2000000);
  return 0;
}
