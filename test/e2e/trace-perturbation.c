// mode=trace says how much it perturbed the run, and stays consistent with
// profile mode where that can be checked without timings. A main thread and
// a worker each write a few MiB of events (past several 64 KiB chunks and
// the 2 MiB small-page part of the buffer):
// - the header counts the events kept and says what making the trace
//   buffers ready cost (bytes, time, how) and that it is in no call's
//   active time; --threads and the JSON say it per thread, and the bytes
//   cover the events (tracemode.py);
// - every call is timed in mode=trace, so the tiny leaf is named among the
//   short calls profile mode would have counted;
// - the online report and the offline `active-time` agree on every
//   function (agree.py): the buffers' cost is inside the probes' measured
//   intervals both charge;
// - profile mode counts exactly the same calls of every function;
// - with no room for events (trace_buffer_events=0) every event is dropped
//   and said so, and the Chrome export of the empty traces has valid
//   timestamps (validate.py: none before the process start).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o pert -lpthread
// calibrate_at_start=1 in both runs: the trace's offline computation applies
// the table to every event, the profile's probes only from when it is known.
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=trace.raw:calibrate_at_start=1 ./pert | FileCheck --check-prefix=OUT %s
// RUN: env ACTIVETIME_OPTIONS=output=profile.raw:calibrate_at_start=1 ./pert | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --threads trace.raw | FileCheck --check-prefix=HDR %s
// RUN: %activetime report --json --threads trace.raw > trace.json
// RUN: %activetime report --json profile.raw > profile.json
// RUN: python3 %S/../Inputs/tracemode.py trace.json profile.json | FileCheck --check-prefix=CMP %s
// RUN: %activetime active-time --json trace.raw > offline.json
// RUN: python3 %S/../Inputs/agree.py trace.json offline.json | FileCheck --check-prefix=AGREE %s
// RUN: %activetime active-time --portion leaf trace.raw | FileCheck --check-prefix=AT %s
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=empty.raw:trace_buffer_events=0 ./pert | FileCheck --check-prefix=OUT %s
// RUN: %activetime report empty.raw | FileCheck --check-prefix=EMPTY %s
// RUN: %activetime export --format=chrome -o empty.json empty.raw
// RUN: %validate chrome empty.json | FileCheck --check-prefix=CHROME %s
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
// One sink per thread: the threads share no data (ThreadSanitizer runs).
static _Thread_local volatile long sink;

NOINLINE void leaf(long i) { sink += i & 1; }

NOINLINE void many(long n) {
  for (long i = 0; i < n; ++i)
    leaf(i);
}

NOINLINE void *worker(void *arg) {
  many((long)arg);
  return 0;
}

int main(void) {
  pthread_t t;
  // 2 events a call, 24 bytes an event in the runtime: 4.8 and 2.4 MB.
  pthread_create(&t, 0, worker, (void *)50000);
  many(100000);
  pthread_join(t, 0);
  printf("sum %ld\n", sink);
  return 0;
}

// OUT: sum 50000

// HDR:      timing:          every call timed
// HDR:      traces:          2 threads (see `activetime active-time`): {{[0-9]+}} events, {{[0-9]+}} switches
// HDR-NEXT: trace buffers:   {{[0-9.]+}} MiB made ready while the threads ran, {{.*}} of their wall time; {{(madvise\(MADV_POPULATE_WRITE\)|a write per page)}}{{.*}}): inside the probes' measured cost or before a thread's first call, so removed from every call's active time
// HDR:      short calls:     150000 of the 150004 timed calls (1 function) averaged under
// HDR:      thread {{[0-9]+}}
// HDR:      trace:           {{[0-9]+}} events, {{[0-9]+}} switches; buffers {{[0-9.]+}} MiB made ready in {{.*}} (removed as probe cost)
// HDR:      thread {{[0-9]+}}
// HDR:      trace:           {{[0-9]+}} events, {{[0-9]+}} switches; buffers {{[0-9.]+}} MiB made ready in {{.*}} (removed as probe cost)

// CMP:      process buffers ok
// CMP-NEXT: thread buffers ok
// CMP-NEXT: thread buffers ok
// CMP-NEXT: leaf calls equal 150000
// CMP-NEXT: main calls equal 1
// CMP-NEXT: many calls equal 2
// CMP-NEXT: worker calls equal 1
// CMP-NOT:  {{.}}

// AGREE:      leaf agree
// AGREE-NEXT: main agree
// AGREE-NEXT: many agree
// AGREE-NEXT: worker agree

// AT:      trace buffers: {{[0-9.]+}} MiB made ready while 2 threads ran, {{.*}}, inside the probes' measured intervals (overhead below) or before a thread's first call: in no active time
// AT:      portion leaf: 100000 invocations
// AT:      portion leaf: 50000 invocations

// EMPTY:      traces:          2 threads (see `activetime active-time`): 0 events, {{[0-9]+}} switches; DROPPED: 300008 events, 0 switches
// CHROME:     chrome trace ok: {{.*}}M=3
