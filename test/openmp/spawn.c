// Linear spawn: one thread creates every task in a loop, the others steal.
// Which diagnosis a run earns depends on how the machine schedules the four
// threads: with the CPUs free, the three others take more tasks from the
// creator's queue than it takes itself (linear spawn); on a loaded machine
// the creator runs most of them itself (U->U) and the region is short of
// parallelism. The diagnosis rules are exact tests in
// unittests/tools/ParallelTest.cpp; here the end-to-end path must give
// counts that add up and a diagnosis that follows from them.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp %s -o spawn
// RUN: env OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive ./spawn
// RUN: %activetime report --parallel --max-task-rate=50000 activetime.spawn.*.raw | FileCheck %s
// CHECK: region spawn.c:[[@LINE+16]] (main)
// CHECK: takes local [[LOCAL:[0-9]+]], stolen [[STOLEN:[0-9]+]] {{.*}}tasks created 2000;
// CHECK: diagnosis {{ *}}{{linear spawn: create the tasks in parallel|not enough tasks}}
// RUN: %activetime report --parallel --json activetime.spawn.*.raw | python3 %S/Inputs/check_spawn.py
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
