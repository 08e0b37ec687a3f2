// `activetime diff` of two builds of one program: -DSLOW=1 makes work() do
// 20 times the iterations; nothing else changes. The diff matches the
// functions of the two binaries by name and shows work() slower with the
// same calls; the call counts (exact, timed or counted) do not change.
// Whether a delta is beyond the noise depends on the machine: only the
// delta's sign of a 20-fold change is checked, never a time.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -DSLOW=0 %s -o old && %at_cc -O2 -g -DSLOW=1 %s -o new
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c).
// RUN: env ACTIVETIME_OPTIONS=output=old1.raw:calibrate_at_start=1 ./old && env ACTIVETIME_OPTIONS=output=new1.raw:calibrate_at_start=1 ./new
// RUN: %activetime diff old1.raw new1.raw > one.txt
// RUN: FileCheck %s --check-prefix=ONE < one.txt
// ONE: ActiveTime diff: base 1 run of old, new 1 run of new
// ONE: SPREAD UNKNOWN: each side has one run
// ONE: functions: 4 in both, 0 added, 0 removed; {{.*}}; calls changed in 0
// ONE: +{{[0-9.]+ [mu]s}} {{[0-9.]+}}x {{[0-9.]+ [num]?s}} slower? {{.*}} 50 50 0 timed work diff.c:[[#@LINE+29]]
//
// Two runs of each build: the spread is known, each side has two runs of
// one process, and the calls per run are still exact.
// RUN: env ACTIVETIME_OPTIONS=output=old2.raw:calibrate_at_start=1 ./old && env ACTIVETIME_OPTIONS=output=new2.raw:calibrate_at_start=1 ./new
// RUN: %activetime diff --base old1.raw old2.raw --new new1.raw new2.raw --json > two.json
// RUN: python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['base']['runs']), len(d['new']['runs']), d['noise']['spread_known']); f={x['linkage_name']: x for x in d['functions']}; [print(n, f[n]['status'], f[n]['how'], f[n]['calls']['base'], f[n]['calls']['new'], f[n]['calls']['delta']) for n in ('work', 'steady', 'tiny', 'main')]; w=f['work']['self_active']; print('work slower', w['delta_ns'] > 0, len(w['base_runs_ns']), len(w['new_runs_ns']))" two.json | FileCheck %s --check-prefix=TWO
// TWO:      2 2 True
// TWO-NEXT: work both timed 50 50 0
// TWO-NEXT: steady both timed 50 50 0
// TWO-NEXT: tiny both counted 100000 100000 0
// TWO-NEXT: main both timed 1 1 0
// TWO-NEXT: work slower True 2 2
//
// The differential flame graph of the new build holds the diff's data.
// RUN: %activetime diff --html d.html --base old1.raw old2.raw --new new1.raw new2.raw
// RUN: FileCheck %s --check-prefix=HTML < d.html
// HTML: "schema":"activetime-diff-html",
// HTML: "name":"work",
// HTML: ActiveTime differential flame graph
#include <stdio.h>

#ifndef SLOW
#define SLOW 0
#endif
#define NOINLINE __attribute__((noinline))

volatile unsigned long sink;

NOINLINE void work(int n) {
  for (int i = 0; i < n * (SLOW ? 20 : 1); ++i)
    sink += i;
}

NOINLINE void steady(int n) {
  for (int i = 0; i < n; ++i)
    sink += i;
}

NOINLINE void tiny(int i) { sink += i; }

int main(void) {
  for (int r = 0; r < 50; ++r) {
    work(20000);
    steady(20000);
  }
  for (int i = 0; i < 100000; ++i)
    tiny(i);
  printf("%lu\n", sink);
  return 0;
}
