// Not enough tasks: two long iterations for four threads.
// Relies on: the two threads without an iteration waiting for most of the
// region (inactive > 10%); the counts are exact: 2 chunks taken, 4 waits
// after a fruitless search of the loop's pool (2 per take >= 1).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o fewtasks
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./fewtasks
// RUN: %activetime report --parallel --max-task-rate=50000 activetime.fewtasks.*.raw | FileCheck %s
// RUN: %activetime report --parallel --json --max-task-rate=50000 activetime.fewtasks.*.raw | FileCheck %s --check-prefix=JSON
// JSON: "schema": "activetime-parallel",
// JSON: "status": "ompt",
// JSON: "location": "fewtasks.c:[[@LINE+21]] (main)",
// JSON: "local_takes": 2,
// JSON: "G->W": 4,
// JSON: "fruitless_per_take": 2,
// JSON: "diagnosis": "not enough tasks",
// CHECK: region fewtasks.c:[[@LINE+16]] (main)
// CHECK: takes          local 2, stolen 0 (stolen/local 0.00); chunks 2, tasks created 0;
// CHECK: transitions {{.*}} G->W 4 {{.*}}; fruitless searches 4 (2.00 per take)
// CHECK: diagnosis      not enough tasks: expose more parallelism
#include <omp.h>

volatile double sink;

static void work(void) {
  double s = 0;
  for (int i = 0; i < 60000000; ++i)
    s += i * 0.5;
  sink += s;
}

int main(void) {
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < 2; ++i)
    work();
  return 0;
}
