// mode=trace records the computation's three inputs; `activetime active-time`
// (offline) must agree with the online accounting of the same
// run, function by function, on every thread. Each timer measurement carries
// the interval its probe measured (raw format v6), which both sides charge
// on top of the calibrated table; and with a hand-fixed table.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %S/threads.c -o threads -lpthread
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=trace.raw ./threads
// RUN: %activetime report --json trace.raw > report.json
// RUN: %activetime active-time --json trace.raw > offline.json
// RUN: python3 %S/../Inputs/agree.py report.json offline.json | FileCheck %s
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=fixed.raw:overhead_enter_ticks=3:overhead_exit_ticks=2 ./threads
// RUN: %activetime report --json fixed.raw > fixed-report.json
// RUN: %activetime active-time --json fixed.raw > fixed-offline.json
// RUN: python3 %S/../Inputs/agree.py fixed-report.json fixed-offline.json | FileCheck %s
// RUN: %activetime active-time --portion work trace.raw | FileCheck --check-prefix=TEXT %s
// CHECK: main agree
// CHECK-NEXT: work agree
// CHECK-NEXT: worker agree
// CHECK-NOT: {{.}}
// TEXT: portion work: {{[0-9]+}} invocation
// TEXT: active
