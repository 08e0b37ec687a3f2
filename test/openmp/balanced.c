// A well-balanced region: equal static blocks; no diagnosis.
// Relies on: the scheduler sharing 2 cores fairly among 4 equally busy
// threads, so they finish within 10% of the region of each other (about
// 0.3 s of work per thread; passive waiting frees the cores at once).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o balanced
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./balanced
// RUN: %activetime report --parallel --max-task-rate=50000 activetime.balanced.*.raw | FileCheck %s
// CHECK: region balanced.c:[[@LINE+15]] (main)
// CHECK: takes          local 4, stolen 0
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
#pragma omp parallel for schedule(static)
  for (int i = 0; i < 4; ++i)
    work(300000000);
  return 0;
}
