// Granularity too fine: a dynamic,1 loop over a tiny body.
// Relies on: one dynamic chunk costing under 100 us of thread time, i.e. more
// than 10,000 chunks per second per thread (--max-task-rate=10000; the seed's
// default of 400,000/s is the real-machine figure, 4 threads on 2 cores halve
// each thread's rate). Measured: 360,000/s in the normal build, 45,000/s
// under ASan+UBSan on a loaded machine.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o fine
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./fine
// RUN: %activetime report --parallel --max-task-rate=10000 activetime.fine.*.raw | FileCheck %s
// CHECK: OpenMP parallel regions: 1
// CHECK: region fine.c:[[@LINE+9]] (main)
// CHECK-NEXT: instances 1, workers 4, threads 4
// CHECK: takes          local 200000, stolen 0 (stolen/local 0.00); chunks 200000, tasks created 0;
// CHECK: diagnosis      granularity too fine: make each task or chunk do more work
#include <omp.h>

volatile long sink;

int main(void) {
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < 200000; ++i)
    sink += i;
  return 0;
}
// Bad thresholds are refused, not clamped:
// RUN: not %activetime report --parallel --min-overhead=-3 activetime.fine.*.raw 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: activetime: error: --min-overhead must be a finite number >= 0
