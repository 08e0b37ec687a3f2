// mode=trace keeps all threads' trace buffers within trace_memory_mb (by
// default a quarter of what the process may use: its cgroup's memory.max,
// else the machine's memory): past it, later events are dropped and
// counted, as when a buffer fills, and the report says the budget ended
// the trace. Calls are still counted exactly (the call tree is not the
// trace). Four threads of 100000 calls want 800000 events (19 MB); 2 MiB
// holds at most 87381 of them.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o tb -lpthread
// RUN: env ACTIVETIME_OPTIONS=mode=trace:trace_memory_mb=2:output=budget.raw ./tb | FileCheck --check-prefix=OUT %s
// RUN: %activetime report budget.raw | FileCheck --check-prefix=REP %s
// RUN: %activetime report --json budget.raw | python3 %S/Inputs/trace-budget.py | FileCheck --check-prefix=JSON %s
// The default budget (a quarter of this machine or cgroup) holds them all.
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=default.raw ./tb | FileCheck --check-prefix=OUT %s
// RUN: %activetime report default.raw | FileCheck --check-prefix=ALL %s
// OUT: sum 19999800000{{$}}
// REP: MEMORY BUDGET
// REP: {{^ +}}400000 {{.*}} add
// JSON: kept-within-budget yes
// JSON: dropped-some yes
// ALL-NOT: MEMORY BUDGET
// ALL-NOT: DROPPED
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) long add(long a, long b) { return a + b; }

static void *work(void *Arg) {
  long s = 0;
  for (long i = 0; i < 100000; i++)
    s = add(s, i);
  *(long *)Arg = s;
  return 0;
}

int main(void) {
  pthread_t T[4];
  long S[4], Sum = 0;
  for (int I = 0; I < 4; ++I)
    pthread_create(&T[I], 0, work, &S[I]);
  for (int I = 0; I < 4; ++I) {
    pthread_join(T[I], 0);
    Sum += S[I];
  }
  printf("sum %ld\n", Sum);
  return 0;
}
