// Imbalance: iteration i costs ~i^2 under static scheduling.
// Relies on: the first threads finishing their blocks long before the last
// (its block holds ~58% of the work): inactive > 10%; a static loop has no
// shared pool, so its waits are not fruitless searches.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o imbalance
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./imbalance
// RUN: %activetime report --parallel --max-task-rate=50000 activetime.imbalance.*.raw | FileCheck %s
// CHECK: region imbalance.c:[[@LINE+16]] (main)
// CHECK: takes          local 4, stolen 0 (stolen/local 0.00); chunks 0, tasks created 0;
// CHECK: fruitless searches 0 (0.00 per take, no shared pool)
// CHECK: diagnosis      imbalance / granularity too coarse: balance the work
#include <omp.h>

volatile double sink;

static void work(long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += i * 0.5;
  sink += s;
}

int main(void) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < 400; ++i)
    work((long)i * i * 20);
  return 0;
}
