// The collection switch stops counted calls from being counted too:
// __activetime_set_enabled(0) (activetime_set_enabled of
// <activetime/activetime.h>) and back on. On the main thread leaf is called
// 1000 times (only counted after its first timed calls), 5000 times with
// collection off, 2000 times back on: exactly 3000 calls. fresh, first called
// only while collection is off, is not in the profile at all. A thread
// started while collection is off calls leaf 500 times then, and 1000 times
// after it is back on: exactly 1000 on that thread. A thread started once it
// is back on counts its 1000 calls. In all, leaf: 5000 calls, every one
// timed in a node or counted, once.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o coll -lpthread
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c).
// RUN: env ACTIVETIME_OPTIONS=output=coll.raw:calibrate_at_start=1 ./coll | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json coll.raw | python3 %S/Inputs/counts.py --threads --func leaf | FileCheck --check-prefix=COUNTS %s
#include <activetime/activetime.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
_Thread_local volatile long sink;
static sem_t ran_off, back_on;

NOINLINE void leaf(long i) { sink += i; }
NOINLINE void fresh(long i) { sink -= i; }

NOINLINE void *started_off(void *arg) {
  for (long i = 0; i < 500; ++i)
    leaf(i);
  sem_post(&ran_off);
  sem_wait(&back_on);
  for (long i = 0; i < 1000; ++i)
    leaf(i);
  return arg;
}

NOINLINE void *started_on(void *arg) {
  for (long i = 0; i < 1000; ++i)
    leaf(i);
  return arg;
}

int main(void) {
  sem_init(&ran_off, 0, 0);
  sem_init(&back_on, 0, 0);
  for (long i = 0; i < 1000; ++i)
    leaf(i);
  int was = activetime_set_enabled(0);
  pthread_t t1, t2;
  pthread_create(&t1, 0, started_off, 0);
  for (long i = 0; i < 5000; ++i)
    leaf(i);
  for (long i = 0; i < 5000; ++i)
    fresh(i);
  sem_wait(&ran_off);
  int now = activetime_set_enabled(1);
  sem_post(&back_on);
  for (long i = 0; i < 2000; ++i)
    leaf(i);
  pthread_join(t1, 0);
  pthread_create(&t2, 0, started_on, 0);
  pthread_join(t2, 0);
  printf("was %d off %d\n", was, now);
  return 0;
}

// OUT: was 1 off 0

// started_off was entered with collection off: it is not on record (its
// exit, with collection back on, is an unmatched one); started_on is.
// COUNTS:      leaf how=counted calls=5000 counted={{[0-9]+}} timed={{[0-9]+}} nodes={{[0-9]+}} maxnode={{[0-9]+}} rel=ok
// COUNTS-NEXT: main how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// COUNTS-NEXT: started_on how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// COUNTS-NEXT: thread leaf how=counted calls=1000 counted={{(984|936|744)$}}
// COUNTS-NEXT: thread leaf how=counted calls=1000 counted={{(984|936|744)$}}
// COUNTS-NEXT: thread leaf how=counted calls=3000 counted={{(2984|2936|2744)$}}
// COUNTS-NOT:  {{.}}
