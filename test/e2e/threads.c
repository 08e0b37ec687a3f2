// Threads: per-thread data is flushed when each thread exits; counts are exact
// (per thread and in all, in the default mode, where work ends up counted);
// the exact tree is checked with every call timed (timing_ratio=0).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o threads -lpthread && env ACTIVETIME_OPTIONS=output=threads.raw ./threads | FileCheck --check-prefix=OUT %s
// RUN: env ACTIVETIME_OPTIONS=output=timed.raw:timing_ratio=0 ./threads | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json timed.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report --threads --top 0 threads.raw | FileCheck --check-prefix=THREADS %s
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
_Thread_local volatile long sink;

NOINLINE void work(int i) { sink += i; }
NOINLINE void *worker(void *arg) {
  long n = (long)arg;
  for (long i = 0; i < n; ++i)
    work((int)i);
  return 0;
}

int main(void) {
  pthread_t t[4];
  for (long i = 0; i < 4; ++i)
    pthread_create(&t[i], 0, worker, (void *)(1000 * (i + 1)));
  for (int i = 0; i < 4; ++i)
    pthread_join(t[i], 0);
  work(0);
  printf("done\n");
  return 0;
}

// OUT: done
// TREE:      1 main{{$}}
// TREE-NEXT: 1 main > work{{$}}
// TREE-NEXT: 4 worker{{$}}
// TREE-NEXT: 10000 worker > work{{$}}
// TREE-NOT: {{.}}

// One section per thread: the main thread (still running when the profile is
// written at exit) and four finished workers with 1000..4000 calls of work.
// THREADS: 1 process, 5 threads
// THREADS-COUNT-5: {{^}}thread {{[0-9]+}}
// THREADS-NOT: {{^}}thread
// RUN: %activetime report --threads --top 0 threads.raw | grep -E '^ +[0-9]+ .* work ' | awk '{print $1}' | sort -n | FileCheck --check-prefix=WORK %s
// WORK: {{^}}1{{$}}
// WORK-NEXT: {{^}}1000{{$}}
// WORK-NEXT: {{^}}2000{{$}}
// WORK-NEXT: {{^}}3000{{$}}
// WORK-NEXT: {{^}}4000{{$}}
// WORK-NEXT: {{^}}10001{{$}}
