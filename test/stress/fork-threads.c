// fork() while other threads run instrumented code: the child (one thread)
// exits normally and writes its own profile; a second child leaves with
// _exit() and writes none (documented); the parent's profile is complete.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o ft -lpthread
// RUN: ./ft | FileCheck --check-prefix=OUT %s
// RUN: ls activetime.ft.*.raw | count 2
// RUN: %activetime report --top 0 activetime.ft.*.raw | FileCheck --check-prefix=REP %s
// OUT-DAG: child exit ok
// OUT-DAG: child _exit ok
// OUT: parent done
// REP: ActiveTime profile: 2 processes
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
static _Thread_local volatile long sink;
static int stop; // atomic: set by main, polled by the workers

NOINLINE void spin(long i) { sink += i; }
NOINLINE void *busy(void *arg) {
  for (long i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); ++i)
    spin(i);
  return arg;
}
NOINLINE void child_work(void) {
  for (long i = 0; i < 100000; ++i)
    spin(i);
}

int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&t[i], 0, busy, 0);
  for (int k = 0; k < 2; ++k) {
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
      child_work();
      printf("child %s ok\n", k == 0 ? "exit" : "_exit");
      fflush(stdout);
      if (k == 0)
        exit(0);
      _exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      printf("child %d failed\n", k);
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 3; ++i)
    pthread_join(t[i], 0);
  printf("parent done\n");
  return 0;
}
