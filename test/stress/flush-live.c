// Profiles written while other threads run instrumented code: 20 mid-run
// activetime_flush() calls with sampling on, then exit() with the workers
// still running. Every file reads back (no node caught half-updated by a
// probe, no open frame charged off-CPU time from after the write's end
// tick), and the workers show up as running threads.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o flive -lpthread
// RUN: env ACTIVETIME_OPTIONS=output=live.raw:sample=1:sample_interval_us=200 ./flive | FileCheck --check-prefix=OUT %s
// RUN: for f in flushed.*.raw live.raw; do %activetime report --threads --top 0 $f > $f.txt || echo "unreadable $f" >> $f.txt; done
// RUN: cat *.raw.txt | FileCheck --check-prefix=REP %s
// RUN: %activetime report --samples live.raw > /dev/null
// OUT: flushed 20 of 20
// OUT-NEXT: exiting
// REP-NOT: unreadable
// REP-COUNT-21: 1 process, 4 threads
#include <activetime/activetime.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
static _Thread_local volatile long sink;
static int started; // atomic: workers inside worker(), i.e. profiled

NOINLINE void leaf(long i) { sink += i; }
NOINLINE void mid(long i) {
  leaf(i);
  leaf(i + 1);
}
NOINLINE void *worker(void *arg) {
  __atomic_fetch_add(&started, 1, __ATOMIC_RELEASE);
  for (long i = 0;; ++i)
    mid(i);
  return arg;
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], 0, worker, 0);
  while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < 3)
    sched_yield();
  struct timespec ts = {0, 2000000}; // 2 ms
  int ok = 0;
  for (int k = 0; k < 20; ++k) {
    nanosleep(&ts, 0);
    char name[32];
    snprintf(name, sizeof(name), "flushed.%d.raw", k);
    ok += activetime_flush() == 0 && rename("live.raw", name) == 0;
  }
  printf("flushed %d of 20\nexiting\n", ok);
  fflush(stdout);
  return 0; // the workers are still running
}
