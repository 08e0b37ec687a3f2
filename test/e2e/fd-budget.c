// The runtime's descriptors are rationed: under ulimit -n 1024, 400 live
// threads (each would hold a context-switch ring and a code-sample ring)
// while main opens 500 files: none of the program's opens fails. Main
// waits 300 ms first: the code-sample drainer opens the rings of threads
// that have lived perf_after_us (1 ms) a few at a time, and on a fast
// machine all 400 could otherwise end before it reached the budget. The
// threads beyond the budget (an eighth of the soft limit) measure their
// switched-out time on the CPU clock and are not sampled, and the report
// gives that as the reason (not a perf limit).
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o fds -lpthread
// RUN: sh -c 'ulimit -n 1024; env ACTIVETIME_OPTIONS=output=fds.raw ./fds 400 500; echo "status $?"' | FileCheck --check-prefix=OUT %s
// OUT: opened 500, failed 0
// OUT-NEXT: status 0
// RUN: %activetime report fds.raw | FileCheck --check-prefix=REPORT %s
// REPORT-DAG: switched-out time {{.*}}from the thread CPU clock {{.*}}({{[1-9][0-9]*}} for want of descriptors: the runtime keeps to an eighth of ulimit -n)
// REPORT-DAG: NOT SAMPLED: {{[1-9][0-9]*}} of 401 threads (the runtime keeps its descriptors to an eighth of ulimit -n)
// No thread is switched out for longer than it lived: hundreds of threads
// ending at once wait for the runtime's registry lock after their end,
// which is not their switched-out time (the CPU clock's last window ends
// at the thread's end).
// RUN: %activetime report --json fds.raw | python3 -c "import json,sys; t=json.load(sys.stdin)['threads']; print('over wall:', sum(x['off_cpu_ns'] > x['wall_ns'] * 1.01 + 1e5 for x in t), 'of', len(t))" | FileCheck --check-prefix=WALL %s
// WALL: over wall: 0 of 401
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_barrier_t started, release;
volatile long sink;

__attribute__((noinline)) void work(long n) {
  for (long i = 0; i < n; i++)
    sink += i;
}

static void *waiter(void *arg) {
  (void)arg;
  work(1000);
  pthread_barrier_wait(&started);
  pthread_barrier_wait(&release);
  return 0;
}

int main(int argc, char **argv) {
  int nt = atoi(argv[1]), nf = atoi(argv[2]);
  pthread_t *t = malloc(sizeof(pthread_t) * nt);
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, 256 << 10);
  pthread_barrier_init(&started, 0, nt + 1);
  pthread_barrier_init(&release, 0, nt + 1);
  for (int i = 0; i < nt; i++)
    pthread_create(&t[i], &a, waiter, 0);
  pthread_barrier_wait(&started);
  usleep(300000);
  int failed = 0;
  for (int i = 0; i < nf; i++)
    failed += open("/dev/null", O_RDONLY) < 0;
  printf("opened %d, failed %d\n", nf, failed);
  pthread_barrier_wait(&release);
  for (int i = 0; i < nt; i++)
    pthread_join(t[i], 0);
  return 0;
}
