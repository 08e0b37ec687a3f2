// The code-sample cost is measured by the drainer thread beside the
// program, not before main: a process that ends first pays nothing for it
// and has no code samples, and the report (text and JSON) says so rather
// than calling sampling unavailable. The measurement takes at least 16
// pairs of ~0.4 ms chunks of the drainer's CPU time; this program returns
// at once. (Three runs, of which the first whose main was not held up for
// those 13 ms is checked: a loaded machine may starve main alone.)
// REQUIRES: perf-events
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o brief
// RUN: for i in 1 2 3; do env ACTIVETIME_OPTIONS=output=brief$i.raw ./brief; done | FileCheck --check-prefix=OUT %s
// OUT-COUNT-3: brief run
// RUN: for i in 1 2 3; do %activetime report brief$i.raw; done > reports.txt
// RUN: grep -m1 "code samples:    none" reports.txt | FileCheck %s
// CHECK: code samples:    none: the run ended before their cost was measured (beside the program, in its first ~15 ms)
// Never called unavailable (perf events work here).
// RUN: FileCheck --check-prefix=NEVER %s < reports.txt
// NEVER: code samples:
// NEVER-NOT: unavailable
// RUN: for i in 1 2 3; do %activetime report --json brief$i.raw > brief$i.json; done
// RUN: python3 -c "import json; print(sorted((p['state'], p['period_ns']) for p in (json.load(open('brief%%d.json' %% i))['processes'][0]['code_samples'] for i in (1, 2, 3)))[0])" | FileCheck --check-prefix=JSON %s
// JSON: ('not_started', 0)
#include <stdio.h>

__attribute__((noinline)) void say(void) { puts("brief run"); }

int main(void) {
  say();
  return 0;
}
