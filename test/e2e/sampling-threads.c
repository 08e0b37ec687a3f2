// The sampler against thread exit and fork: hundreds of short threads exit
// while a 50 us sampler reads their stacks (the handshake keeps their TLS,
// shadow stacks and perf rings alive while read), and a fork in the middle
// gives the child its own sampler and samples. The program must finish,
// and both profiles must read back with a samples section.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o st -lpthread
// The child of this multi-threaded parent starts threads (its own and the
// sampler): ThreadSanitizer refuses that unless told (die_after_fork=0).
// RUN: env TSAN_OPTIONS="$TSAN_OPTIONS:die_after_fork=0" ACTIVETIME_OPTIONS=sample=1:sample_interval_us=50 ./st | FileCheck --check-prefix=OUT %s
// RUN: ls activetime.st.*.raw | count 2
// RUN: for f in activetime.st.*.raw; do %activetime report --samples $f; done | FileCheck %s
// RUN: %activetime report --samples activetime.st.*.raw | FileCheck --check-prefix=BOTH %s
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
_Thread_local volatile unsigned long sink;

NOINLINE void leaf(int i) { sink += i; }
NOINLINE void *worker(void *arg) {
  for (int i = 0; i < 20000; ++i)
    leaf(i);
  return arg;
}

static void wave(int n) {
  for (int w = 0; w < n; ++w) {
    pthread_t t[8];
    for (int i = 0; i < 8; ++i)
      pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 8; ++i)
      pthread_join(t[i], 0);
  }
}

int main(void) {
  wave(15);
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    wave(5);
    return 0;
  }
  wave(15);
  int st = 0;
  waitpid(p, &st, 0);
  printf("done %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
  return 0;
}

// OUT: done 0
// CHECK: Samples: {{[1-9][0-9]*}}
// CHECK: Samples: {{[1-9][0-9]*}}
// BOTH: Samples:
// BOTH: worker
