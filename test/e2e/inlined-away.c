// A small static function inlined at -O2 has no probes of its own. By
// default (probes after inlining) the report's header names it among the
// functions inlined away; built with -mllvm -activetime-before-inlining its
// inlined copies keep their probes: it has a row with its exact call count,
// and the calls inlined into sum do not confuse the runtime's frame
// bookkeeping (no unwound frames, no unmatched exits).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o after && ./after | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 activetime.after.*.raw | FileCheck --check-prefix=AFTER %s
// RUN: %activetime report --json activetime.after.*.raw | FileCheck --check-prefix=AFTER-JSON %s
// RUN: %at_cc -O2 -g -mllvm -activetime-before-inlining %s -o before && ./before | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 activetime.before.*.raw | FileCheck --check-prefix=BEFORE %s
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static int square(int x) { return x * x; }

NOINLINE long sum(int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += square(i);
  return s;
}

volatile int count = 1000; // three real calls of sum, not one reused

int main(void) {
  long t = 0;
  for (int r = 0; r < 3; ++r)
    t += sum(count);
  printf("total %ld\n", t);
  return 0;
}

// OUT: total 998500500

// AFTER: inlined away: 1 of the program's 3 functions was inlined away at compile time and has no figures of its own (its time is in its callers'): square; rebuild with -mllvm -activetime-before-inlining to count them
// AFTER: calls
// AFTER-DAG: {{^ +}}3 {{.*}} sum {{ *}}inlined-away.c:19
// AFTER-DAG: {{^ +}}1 {{.*}} main {{ *}}inlined-away.c:28
// AFTER-NOT: square
// AFTER-JSON: "inlined_away": {
// AFTER-JSON-NEXT: "functions": 1,
// AFTER-JSON-NEXT: "program_functions": 3,
// AFTER-JSON: "name": "square",
// AFTER-JSON: "line": 17

// BEFORE-NOT: inlined away:
// BEFORE-NOT: unwound frames
// BEFORE-NOT: unmatched exits
// BEFORE: calls
// BEFORE-DAG: {{^ +}}3000 {{.*}} square {{ *}}inlined-away.c:17
// BEFORE-DAG: {{^ +}}3 {{.*}} sum {{ *}}inlined-away.c:19
// BEFORE-DAG: {{^ +}}1 {{.*}} main {{ *}}inlined-away.c:28
