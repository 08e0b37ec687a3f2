// Threads other than the main one get their perf rings only once they have
// lived perf_after_us: until then their switched-out time comes from their
// CPU clock, and one that ends before its rings are opened has no code
// samples, which the report says (NOT SAMPLED, for that reason). A thread
// that lives longer gets its rings from the code-sample drainer in its next
// round after that time: perf switch records and code samples from then on.
// No thread gets its code-sample ring before the drainer has measured a
// sample's cost (in the first ~15 ms, beside the program), so main spins
// 300 ms after the workers end (samples-not-started.c: a run that ends
// before that).
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o sh -lpthread
// Every worker ends long before 10 s.
// RUN: env ACTIVETIME_OPTIONS=output=short.raw:perf_after_us=10000000 ./sh 0 300 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --threads --top 0 short.raw | FileCheck --check-prefix=SHORT %s
// A worker that spins for 300 ms opens its rings after 1 ms.
// RUN: env ACTIVETIME_OPTIONS=output=long.raw:perf_after_us=1000 ./sh 300 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --threads --top 0 long.raw | FileCheck --check-prefix=LONG %s
// OUT: done
// SHORT: NOT SAMPLED: 4 of 5 threads (ended before their perf rings were opened, which is not before a thread has lived perf_after_us)
// SHORT: switched-out time from perf context-switch records: 1 thread; from the thread CPU clock (resolution {{.*}}): 4 threads (4 ended before their perf rings were opened, which is not before a thread has lived perf_after_us)
// SHORT: NOT SAMPLED (ended before its perf rings were opened)
// LONG-NOT: NOT SAMPLED
// LONG: switched-out time from perf context-switch records: 5 threads{{$}}
// LONG-NOT: NOT SAMPLED
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
_Thread_local volatile long sink;
static long spin_ms;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

NOINLINE void step(long i) { sink += i; }
NOINLINE void *worker(void *arg) {
  double end = now_ms() + spin_ms;
  long i = 0;
  do
    step(i++);
  while (now_ms() < end);
  return arg;
}

int main(int argc, char **argv) {
  spin_ms = argc > 1 ? atol(argv[1]) : 0;
  long main_ms = argc > 2 ? atol(argv[2]) : 0;
  pthread_t t[4];
  for (int i = 0; i < 4; ++i)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 4; ++i)
    pthread_join(t[i], 0);
  double end = now_ms() + main_ms;
  while (now_ms() < end)
    step(1);
  printf("done\n");
  return 0;
}
