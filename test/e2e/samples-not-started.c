// The code-sample cost is measured by the drainer thread beside the
// program, not before main: a process that ends first pays nothing for it
// and has no code samples, and the report (text and JSON) says so rather
// than calling sampling unavailable. The measurement takes at least 16
// pairs of ~0.4 ms chunks of the drainer's CPU time; this program returns
// at once.
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o brief
// RUN: env ACTIVETIME_OPTIONS=output=brief.raw ./brief | FileCheck --check-prefix=OUT %s
// OUT: brief run
// RUN: %activetime report brief.raw | FileCheck %s
// CHECK: code samples:    none: the run ended before their cost was measured (beside the program, in its first ~15 ms)
// CHECK-NOT: NOT SAMPLED
// RUN: %activetime report --json brief.raw | python3 -c "import json,sys; p=json.load(sys.stdin)['processes'][0]['code_samples']; print(p['state'], p['period_ns'])" | FileCheck --check-prefix=JSON %s
// JSON: not_started 0
#include <stdio.h>

__attribute__((noinline)) void say(void) { puts("brief run"); }

int main(void) {
  say();
  return 0;
}
