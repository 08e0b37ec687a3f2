// Counted calls are exact per thread and in all: 8 threads call the same
// short function 100000 times each (their first calls timed, the rest only
// counted, each thread in its own counters: 16, or 64 or 256 when a code
// sample in those calls put the switch off to a later timing check). The flat row has exactly
// 800000 calls, each thread's row (report --threads, JSON "threads")
// exactly 100000, and every call is either timed in a tree node or counted:
// calls == counted_calls + the timed nodes' calls.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o ct -lpthread
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c).
// RUN: env ACTIVETIME_OPTIONS=output=ct.raw:calibrate_at_start=1 ./ct | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json ct.raw | python3 %S/Inputs/counts.py --threads --func work | FileCheck --check-prefix=JSON %s
// RUN: %activetime report --threads --top 0 ct.raw | FileCheck --check-prefix=TEXT %s
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define THREADS 8
#define CALLS 100000
// One sink per thread: the threads share no data (ThreadSanitizer runs).
_Thread_local volatile long sink;
static pthread_barrier_t start; // all threads count at the same time

NOINLINE void work(long i) { sink += i; }
NOINLINE void *worker(void *arg) {
  pthread_barrier_wait(&start);
  for (long i = 0; i < CALLS; ++i)
    work(i);
  return arg;
}

int main(void) {
  pthread_t t[THREADS];
  pthread_barrier_init(&start, 0, THREADS);
  for (int i = 0; i < THREADS; ++i)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < THREADS; ++i)
    pthread_join(t[i], 0);
  printf("done\n");
  return 0;
}

// OUT: done

// JSON:          main how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// JSON-NEXT:     work how=counted calls=800000 counted={{[0-9]+}} timed={{[0-9]+}} nodes=1 maxnode={{[0-9]+}} rel=ok
// JSON-NEXT:     worker how=timed calls=8 counted=0 timed=8 nodes=1 maxnode=8 rel=ok
// JSON-COUNT-8:  thread work how=counted calls=100000 counted={{(99984|99936|99744)$}}
// JSON-NOT:      {{.}}

// TEXT:         1 process, 9 threads
// TEXT:         {{^ +800000 +- +- .* counted +work +counts-threads.c:}}
// TEXT-COUNT-8: {{^ +100000 +- +- .* counted +work +counts-threads.c:}}
// TEXT-NOT:     {{^ +[0-9]+ .* work +counts-threads.c:}}
