// Latency histograms: a function with a known bimodal pattern,
// 90 short calls and 10 calls with 100 times the work (an iteration count,
// not a sleep). Every call is counted exactly once in its node's histogram
// (the reader checks that the counts sum to the node's calls), p50 lies in
// the short mode and p99 in the long one. No timing thresholds: the modes
// are split at the widest gap between the histogram's buckets
// (latencyq.py --modes), which the 100x ratio of the work puts between
// them on any machine. The program exits from inside finish(), so main and
// finish are open at the write: the writer adds them to the histograms.
// Without code samples (whose interrupts can set a short call apart: its
// per-call time would be uncertain) every call is in a bucket.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o bimodal && env ACTIVETIME_OPTIONS=code_samples=0 ./bimodal
// RUN: %activetime report --json activetime.bimodal.*.raw | python3 %S/../Inputs/latencyq.py --modes | FileCheck %s
// CHECK: finish timed=1 one mode
// CHECK: main timed=1 one mode
// CHECK: work timed=100 short=90 long=10 p50=short p99=long{{$}}
// RUN: %activetime report --latency activetime.bimodal.*.raw | FileCheck --check-prefix=TEXT %s
// TEXT: timed calls min p50 p90 p99 max function
// TEXT: {{^ +}}100 {{.*}} work
// TEXT: histogram of work: 100 timed calls
// With code samples: the calls in buckets and those set apart are all 100;
// the long ones, of which a sample's cost is a small part, are all in.
// RUN: rm -f activetime.bimodal.*.raw && ./bimodal
// RUN: %activetime report --json activetime.bimodal.*.raw | python3 %S/../Inputs/latencyq.py --modes | FileCheck --check-prefix=SAMPLED %s
// SAMPLED: work timed=100 short={{[0-9]+}} long=10 p50=short p99=long
//
// ACTIVETIME_OPTIONS=latency=0: no histograms, and the report says why.
// RUN: rm -f activetime.bimodal.*.raw
// RUN: env ACTIVETIME_OPTIONS=latency=0 ./bimodal
// RUN: %activetime report --latency activetime.bimodal.*.raw | FileCheck --check-prefix=OFF %s
// OFF: 100 - - - - - work (not collected (ACTIVETIME_OPTIONS=latency=0))
// OFF-NOT: histogram of
#include <stdint.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
static volatile uint64_t sink;

NOINLINE void work(int n) {
  uint64_t x = sink;
  for (int i = 0; i < n; ++i)
    x = x * 6364136223846793005ull + 1;
  sink = x;
}

NOINLINE void finish(void) {
  sink = sink + 1;
  exit(0);
}

int main(void) {
  for (int i = 0; i < 100; ++i)
    work(i % 10 == 9 ? 4000000 : 40000);
  finish();
}
