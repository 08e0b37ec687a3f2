// export --from/--to on a real mode=trace run: the middle third of the
// traced span keeps only slices inside it, still nested and closed, with
// main (running across both bounds) clipped to them; the report refuses
// the range (its views have no times).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o range
// RUN: env ACTIVETIME_OPTIONS=mode=trace:output=trace.raw ./range
// RUN: python3 %S/Inputs/trace-range.py %activetime trace.raw | FileCheck %s
// RUN: not %activetime report --from=0 trace.raw 2>&1 | FileCheck --check-prefix=REPORT %s
// CHECK: slices: fewer
// CHECK-NEXT: inside the range: True
// CHECK-NEXT: nested and closed: True
// CHECK-NEXT: main clipped: True
// REPORT: error: --from has no effect with the time report

#include <stdio.h>

volatile unsigned long sink; // unsigned: wraps, no overflow (UBSan)

__attribute__((noinline)) void step(unsigned long n) {
  for (unsigned long i = 0; i < n; ++i)
    sink += i;
}

__attribute__((noinline)) void phase(int k) {
  for (int i = 0; i < 100; ++i)
    step(1000 + k);
}

int main(void) {
  for (int k = 0; k < 30; ++k)
    phase(k);
  printf("%lu\n", sink);
  return 0;
}
