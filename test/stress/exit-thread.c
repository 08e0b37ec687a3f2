// exit() called from a non-main thread while main waits: the profile is
// written once, complete and readable.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o et -lpthread
// RUN: ./et | FileCheck --check-prefix=OUT %s
// RUN: ls activetime.et.*.raw | count 1
// RUN: %activetime report --top 0 activetime.et.*.raw | FileCheck --check-prefix=REP %s
// OUT: exiting from a thread
// REP: ActiveTime profile: 1 process, 2 threads
// REP: 1000 {{.*}} leaf
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;

NOINLINE void leaf(long i) { sink += i; }
NOINLINE void *quitter(void *arg) {
  for (long i = 0; i < 1000; ++i)
    leaf(i);
  printf("exiting from a thread\n");
  fflush(stdout);
  exit(0);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, quitter, 0);
  pthread_join(t, 0);
  printf("not reached\n");
  return 1;
}
