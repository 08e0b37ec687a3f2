// Exact call counts and call-tree shape, C, at -O0 and -O2.
// Flat call counts are exact in the default mode (short functions are only
// counted after their first timed calls); the exact shape and counts of the
// call tree need every call timed: timing_ratio=0.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O0 -g %s -o calls0 && env ACTIVETIME_OPTIONS=output=d0.raw ./calls0 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 d0.raw | FileCheck --check-prefix=FLAT %s
// RUN: env ACTIVETIME_OPTIONS=output=t0.raw:timing_ratio=0 ./calls0 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 t0.raw | tee t.txt | FileCheck --check-prefix=FLAT %s && FileCheck --check-prefix=TIMED %s < t.txt
// RUN: %activetime report --json t0.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %at_cc -O2 -g %s -o calls2 && env ACTIVETIME_OPTIONS=output=d2.raw ./calls2 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 d2.raw | FileCheck --check-prefix=FLAT %s
// RUN: env ACTIVETIME_OPTIONS=output=t2.raw:timing_ratio=0 ./calls2 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --top 0 t2.raw | tee t.txt | FileCheck --check-prefix=FLAT %s && FileCheck --check-prefix=TIMED %s < t.txt
// RUN: %activetime report --json t2.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report --tree t2.raw | FileCheck --check-prefix=TEXT %s

// FLAT-NOT: unwound
// FLAT-NOT: running
// FLAT: note: active = elapsed - probe overhead - switched-out
// With every call timed, no row is counted.
// TIMED: note: how:
// TIMED-NOT: {{ counted +[a-z]+ +calls\.c:}}
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile int sink;

// FLAT-DAG: {{^ +}}33 {{.*}} leaf {{ *}}calls.c:[[#@LINE+1]]{{$}}
NOINLINE void leaf(int i) { sink += i; }
// FLAT-DAG: {{^ +}}11 {{.*}} middle {{ *}}calls.c:[[#@LINE+1]]{{$}}
NOINLINE void middle(int n) {
  for (int i = 0; i < n; ++i)
    leaf(i);
}
// FLAT-DAG: {{^ +}}2 {{.*}} twice {{ *}}calls.c:[[#@LINE+1]]{{$}}
NOINLINE static int twice(int x) {
  if (x > 100)
    return x;          // early return: a second exit path
  middle(2);
  return x * 2;
}

// FLAT-DAG: {{^ +}}1 {{.*}} main {{ *}}calls.c:[[#@LINE+1]]{{$}}
int main(void) {
  for (int i = 0; i < 10; ++i)
    middle(3);
  int r = twice(1) + twice(1000);
  leaf(7);
  printf("r=%d\n", r);
  return 0;
}

// OUT: r=1002

// TREE:      1 main{{$}}
// TREE-NEXT: 1 main > leaf{{$}}
// TREE-NEXT: 10 main > middle{{$}}
// TREE-NEXT: 30 main > middle > leaf{{$}}
// TREE-NEXT: 2 main > twice{{$}}
// TREE-NEXT: 1 main > twice > middle{{$}}
// TREE-NEXT: 2 main > twice > middle > leaf{{$}}
// TREE-NOT: {{.}}

// TEXT: call tree
// TEXT-NEXT: elapsed active +-95% % self-active +-95% overhead off-cpu calls function
// TEXT-NEXT: {{^( +[0-9.]+ [num]?s!?){3} +[0-9.]+%( +[0-9.]+ [num]?s!?){4} +1 +main$}}
