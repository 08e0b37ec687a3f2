// Switched-out time is removed from active time: three CPU-bound threads
// pinned to one CPU are preempted (involuntary switches), and a sleeping
// function is switched out voluntarily. Qualitative facts only, no timing
// thresholds (bench/accuracy measures the errors).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o preempt -lpthread && ./preempt
// RUN: %activetime report --json --threads activetime.preempt.*.raw | python3 %S/../Inputs/activeq.py | FileCheck %s
// RUN: %activetime report activetime.preempt.*.raw | FileCheck --check-prefix=TEXT %s
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
static _Thread_local volatile uint64_t sink;

NOINLINE void spin(void) {
  uint64_t x = sink;
  for (int i = 0; i < 200000000; ++i)
    x = x * 6364136223846793005ull + 1;
  sink = x;
}
NOINLINE void *worker(void *arg) {
  (void)arg;
  spin();
  return 0;
}
NOINLINE void doze(void) {
  struct timespec ts = {0, 20000000}; // 20 ms
  nanosleep(&ts, 0);
}

int main(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(0, &set);
  sched_setaffinity(0, sizeof(set), &set);
  pthread_t t[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; ++i)
    pthread_join(t[i], 0);
  doze();
  return 0;
}

// Leaves carry only their own entry's share of the probe cost, which the
// calibration may put at 0; callers always carry their callees' probes.
// CHECK: doze calls=1 active<elapsed=yes off-cpu=yes overhead={{yes|no}} voluntary=yes
// CHECK: main calls=1 active<elapsed=yes off-cpu=yes overhead=yes voluntary=yes
// CHECK: spin calls=3 active<elapsed=yes off-cpu=yes overhead={{yes|no}} voluntary={{yes|no}} involuntary=yes
// CHECK: worker calls=3 active<elapsed=yes off-cpu=yes overhead=yes
// CHECK-COUNT-4: thread source=perf off-cpu=yes
// TEXT: switched-out time from perf context-switch records: 4 threads
