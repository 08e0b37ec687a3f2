// Finished threads beyond keep_threads fold into one record per process:
// 40 threads, one after another, each calling work() 10000 times (timed
// at first, then counted), with keep_threads=10. The first 10 finished
// threads keep their rows; the other 30 sum into one record whose counts
// are exact (300000 calls of work, every one timed in a node or counted),
// whose code samples and shadow-stack samples (rewritten to the record's
// nodes when the thread folds) still land on functions, and which says
// what it is in the header, the thread rows and the JSON.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o kt -lpthread
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c).
// RUN: env ACTIVETIME_OPTIONS=output=kt.raw:keep_threads=10:sample=1:sample_interval_us=200:perf_after_us=0:calibrate_at_start=1 ./kt | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --threads --top 0 kt.raw | FileCheck --check-prefix=TEXT %s
// RUN: %activetime report --json kt.raw | python3 %S/Inputs/counts.py --threads --func work | FileCheck --check-prefix=JSON %s
// RUN: %activetime report --json kt.raw | python3 -c "import json,sys; t=json.load(sys.stdin)['threads']; print(sorted(x.get('folded_threads', 0) for x in t))" | FileCheck --check-prefix=FOLDED %s
// RUN: %activetime report --samples kt.raw | FileCheck --check-prefix=SAMPLES %s
// keep_threads=0 folds every finished thread; the live main thread keeps
// its own record. Default options: a thread that ends before its perf
// rings are opened (perf_after_us; these take a fraction of a millisecond)
// has no code samples to split work's self time off worker's, so the two
// rows, in order of self-active time, can come in either order.
// RUN: env ACTIVETIME_OPTIONS=output=all.raw:keep_threads=0:calibrate_at_start=1 ./kt | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 all.raw | FileCheck --check-prefix=ALL %s
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define THREADS 40
#define CALLS 10000
_Thread_local volatile long sink;

NOINLINE void work(long i) { sink += i; }
NOINLINE void spin(void) {
  for (long i = 0; i < 200000; ++i)
    sink += i;
}
NOINLINE void *worker(void *arg) {
  for (long i = 0; i < CALLS; ++i)
    work(i);
  spin();
  return arg;
}

int main(void) {
  for (int i = 0; i < THREADS; ++i) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
  }
  printf("done\n");
  return 0;
}

// OUT: done

// TEXT: ActiveTime profile: 1 process, 41 threads (30 finished threads folded into one record per process by the runtime: keep_threads){{$}}
// TEXT: threads: 41 (30 of them folded into one record){{$}}
// TEXT: {{^ +400000 .* work +keep-threads.c:}}
// TEXT: {{^30 finished threads folded together "kt" \(pid [0-9]+\): span }}
// Rows in order of self-active time, which these two are close in.
// TEXT-DAG: {{^ +300000 .* work +keep-threads.c:}}
// TEXT-DAG: {{^ +30 .* worker +keep-threads.c:}}

// JSON:        work how=counted calls=400000 counted={{[0-9]+}} timed={{[0-9]+}} nodes=1 maxnode={{[0-9]+}} rel=ok
// JSON-COUNT-10: thread work how={{timed|counted}} calls=10000 counted={{[0-9]+}}
// JSON:        thread work how=counted calls=300000 counted={{[0-9]+}}
// JSON-NOT:    thread work

// FOLDED: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30]

// SAMPLES: Snapshots: {{.*}}, 0 of nodes not in the profile
// SAMPLES: Per call path
// SAMPLES: worker > spin

// ALL: 1 process, 41 threads (40 finished threads folded
// ALL-DAG: {{^ +400000 .* work +keep-threads.c:}}
// ALL-DAG: {{^ +40 .* worker +keep-threads.c:}}
