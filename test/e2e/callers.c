// Callers and callees, bottom-up and the filters on a real run. leaf is
// called by heavy (200 calls with a large load) and by light (50 calls with
// a small one): both appear among leaf's callers with their exact call
// counts (every call timed: timing_ratio=0) and their call lines, heavy
// first (it carries far more of leaf's time: 400x the work per call, 4x the
// calls, so the order holds on any machine); in the bottom-up view heavy's
// path carries the larger share of leaf's self time. --focus=light keeps
// light's subtree only, --ignore=heavy drops heavy's calls with leaf's under
// them, and --tid of another thread is an error.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g %s -o callers
// RUN: env ACTIVETIME_OPTIONS=output=c.raw:timing_ratio=0 ./callers
// RUN: %activetime report --callers --top 0 c.raw > callers.txt
// RUN: FileCheck --check-prefix=CALLERS %s < callers.txt
// RUN: FileCheck --check-prefix=LINES %s < callers.txt
// RUN: %activetime report --bottom-up --json c.raw | python3 %S/Inputs/bottomup-shares.py leaf | FileCheck --check-prefix=SHARES %s
// RUN: %activetime report --focus=light --callers --top 0 c.raw | FileCheck --check-prefix=FOCUS %s
// RUN: %activetime report --ignore=heavy --callers --top 0 c.raw | FileCheck --check-prefix=IGNORE %s

#include <stdio.h>

volatile unsigned long sink; // unsigned: wraps, no overflow (UBSan)

__attribute__((noinline)) unsigned long leaf(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i)
    s += sink ^ i;
  return s;
}

__attribute__((noinline)) void heavy(void) {
  for (int i = 0; i < 200; ++i)
    sink += leaf(20000);
// LINES-DAG: {{^ +}}200 {{[0-9.]+ [mun]?s}} {{[0-9.]+ [mun]?s}} - heavy callers.c:[[#@LINE-1]]
}

__attribute__((noinline)) void light(void) {
  for (int i = 0; i < 50; ++i)
    sink += leaf(200);
// LINES-DAG: {{^ +}}50 {{[0-9.]+ [mun]?s}} {{[0-9.]+ [mun]?s}} - light callers.c:[[#@LINE-1]]
}

int main(void) {
  heavy();
  light();
  printf("%lu\n", sink);
  return 0;
}

// CALLERS: {{^}}  leaf  (calls 250,
// CALLERS-NEXT: {{^}}    callers:
// CALLERS-NEXT: {{^ +}}200 {{.*}}  heavy  callers.c:
// CALLERS-NEXT: {{^ +}}50 {{.*}}  light  callers.c:
// CALLERS-NEXT: {{^}}    callees: none
// CALLERS: {{^}}  main  (calls 1,
// CALLERS-NEXT: {{^}}    callers:
// CALLERS-NEXT: {{^ +}}1 {{.*}}  <thread root>
// CALLERS-NEXT: {{^}}    callees:
// CALLERS-NEXT: {{^ +}}1 {{.*}}  heavy  callers.c:
// CALLERS-NEXT: {{^ +}}1 {{.*}}  light  callers.c:

// SHARES: leaf <- heavy larger
// SHARES: shares sum to leaf's self time

// FOCUS: filters: --focus=light
// FOCUS: {{^}}  leaf  (calls 50,
// FOCUS-NEXT: {{^}}    callers:
// FOCUS-NEXT: {{^ +}}50 {{.*}}  light  callers.c:
// FOCUS-NEXT: {{^}}    callees: none
// FOCUS-NOT: heavy
// The focused call is a root of the filtered tree, but the call site its
// entry probe read is still in main's code: main made the call.
// FOCUS: {{^}}  light  (calls 1,
// FOCUS-NEXT: {{^}}    callers:
// FOCUS-NEXT: {{^ +}}1 {{.*}} - main callers.c:
// FOCUS-NOT: heavy

// IGNORE: filters: --ignore=heavy; {{.*}}; ignored 1 calls with
// IGNORE: {{^}}  leaf  (calls 50,
// IGNORE-NOT: heavy
