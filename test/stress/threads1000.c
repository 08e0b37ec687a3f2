// 1,000 threads created and joined (50 at a time) while profiling and
// sampling every 200 us: no crash, no deadlock, output unchanged, every
// thread in the profile with exact call counts.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o t1000 -lpthread
// RUN: env ACTIVETIME_OPTIONS=sample=1:sample_interval_us=200 ./t1000 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 activetime.t1000.*.raw | FileCheck --check-prefix=REP %s
// RUN: %activetime report --samples activetime.t1000.*.raw > /dev/null
// OUT: joined 1000 sum 1000000
// REP: ActiveTime profile: 1 process, 1001 threads
// REP-DAG: 1000000 {{.*}} leaf
// REP-DAG: 1000 {{.*}} worker
// The same in mode=trace: every thread's buffers are mapped at its start but
// take memory only as its events are written (a chunk at a time), so 1,001
// traced threads run, and every event is kept.
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=trace.raw ./t1000 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --header trace.raw | FileCheck --check-prefix=TRACE %s
// TRACE: ActiveTime profile: 1 process, 1001 threads
// TRACE: traces: 1001 threads (see `activetime active-time`): 2002002 events, {{[0-9]+}} switches{{$}}
// TRACE-NEXT: trace buffers: {{[0-9.]+}} MiB made ready while the threads ran
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
static _Thread_local volatile long sink;

NOINLINE void leaf(long i) { sink += i & 1; }

NOINLINE void *worker(void *arg) {
  for (int i = 0; i < 1000; ++i)
    leaf(i);
  return arg;
}

int main(void) {
  long joined = 0;
  for (int b = 0; b < 20; ++b) {
    pthread_t t[50];
    for (int i = 0; i < 50; ++i)
      pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 50; ++i)
      if (pthread_join(t[i], 0) == 0)
        ++joined;
  }
  printf("joined %ld sum %ld\n", joined, joined * 1000);
  return 0;
}
