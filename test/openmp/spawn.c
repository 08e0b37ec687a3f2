// Linear spawn: one thread creates every task in a loop, the others steal.
// Relies on: the three other threads together taking more tasks from the
// creator's queue than the creator takes from it itself (it is busy creating,
// and runs the tasks that overflow its queue directly: U->U, not a take), and
// on a 50 us task keeping each thread under 50,000 tasks/s.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o spawn
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./spawn
// RUN: %activetime report --parallel --max-task-rate=50000 activetime.spawn.*.raw | FileCheck %s
// CHECK: region spawn.c:[[@LINE+15]] (main)
// CHECK: tasks created 2000;
// CHECK: diagnosis      linear spawn: create the tasks in parallel
#include <omp.h>

volatile double sink;

static void work(void) {
  double s = 0;
  for (int i = 0; i < 50000; ++i)
    s += i * 0.5;
  sink += s;
}

int main(void) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 2000; ++i) {
#pragma omp task
    work();
  }
  return 0;
}
