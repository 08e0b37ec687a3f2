// fork() while other threads drain their code-sample rings (inside
// dl_iterate_phdr, which holds the loader's lock): glibc's fork does not
// take that lock, so without the runtime's fork gate a child forked at such
// a moment inherits it held and hangs at its exit-time drain. Two threads
// run timed calls (each drains the samples taken since the previous probe)
// while the main thread forks 200 children; every child must exit on its
// own (an alarm turns a hang into a failure) and write its profile.
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t/p && cd %t
// RUN: %at_cc -O2 -g %s -o fd -lpthread
// RUN: env ACTIVETIME_OPTIONS=output=%t/p/ ./fd | FileCheck %s
// RUN: ls %t/p | count 201
// CHECK-NOT: failed
// CHECK: forks 200 done
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define FORKS 200
// One sink per thread: the threads share no data (ThreadSanitizer runs).
static _Thread_local volatile long sink;
static int stop; // atomic: set by main, polled by the workers

// Long enough to stay timed (a few microseconds a call).
NOINLINE void step(long n) {
  for (long i = 0; i < n; ++i)
    sink += i;
}
NOINLINE void *busy(void *arg) {
  while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
    step(5000);
  return arg;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; ++i)
    pthread_create(&t[i], 0, busy, 0);
  int failed = 0;
  for (int k = 0; k < FORKS; ++k) {
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
      alarm(20);
      step(1000);
      exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      printf("child %d failed\n", k);
      ++failed;
    }
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 2; ++i)
    pthread_join(t[i], 0);
  printf("forks %d done\n", FORKS);
  return failed != 0;
}
