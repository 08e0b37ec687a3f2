// Buffer capacities at the top of their documented ranges (2^30 events,
// switches, samples: 24-32 GiB each of address space) start and run the
// program as usual: the buffers are address space only, their pages made
// ready as they fill. Where even the address space is refused (ulimit -v),
// the thread's trace buffer is empty and its events are dropped and
// counted, as when a buffer fills; the program's output and status are its
// own either way. ThreadSanitizer maps terabytes of shadow: not under it.
// UNSUPPORTED: tsan
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o huge
// RUN: env ACTIVETIME_OPTIONS=mode=trace:trace_buffer_events=1073741824:trace_buffer_switches=1073741824:output=trace.raw ./huge | FileCheck --check-prefix=OUT %s
// RUN: %activetime report trace.raw | FileCheck --check-prefix=TRACE %s
// RUN: env ACTIVETIME_OPTIONS=sample=1:sample_buffer=1073741824:output=sample.raw ./huge | FileCheck --check-prefix=OUT %s
// RUN: %activetime report sample.raw | FileCheck --check-prefix=REPORT %s
// RUN: sh -c 'ulimit -v 2000000; env ACTIVETIME_OPTIONS=mode=trace:trace_buffer_events=1073741824:output=limited.raw ./huge; echo "status $?"' | FileCheck --check-prefix=LIMITED %s
// RUN: %activetime report limited.raw | FileCheck --check-prefix=DROPPED %s
// OUT: sum 499500{{$}}
// TRACE: traces: 1 thread
// TRACE-NOT: DROPPED
// REPORT: {{^ +}}1000 {{.*}} add
// LIMITED: sum 499500
// LIMITED-NEXT: status 0
// DROPPED: traces: 1 thread {{.*}}DROPPED: {{[1-9][0-9]*}} events
#include <stdio.h>

__attribute__((noinline)) long add(long a, long b) { return a + b; }

int main(void) {
  long s = 0;
  for (long i = 0; i < 1000; i++)
    s = add(s, i);
  printf("sum %ld\n", s);
  return 0;
}
