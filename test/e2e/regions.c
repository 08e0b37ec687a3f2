// Regions of the C API and source attributes show in the report as functions
// (call tree, counts); an excluded function does not; an end with nothing
// open, and exits of calls entered while collection was off, are handled.
// The tree's exact shape is checked with every call timed (timing_ratio=0).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -std=c2x -O2 -g %s -o regions
// RUN: env ACTIVETIME_OPTIONS=timing_ratio=0 ./regions | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.regions.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report activetime.regions.*.raw | FileCheck --check-prefix=REPORT %s
#include <activetime/activetime.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile int sink;

NOINLINE void work(int n) {
  for (int i = 0; i < n; ++i)
    sink += i;
}
[[activetime::no_instrument]] NOINLINE void hidden(void) { work(10); }
[[activetime::region("frame")]] NOINLINE static void render(void) { work(20); }

NOINLINE void decode(void) {
  ACTIVETIME_REGION_BEGIN("decode.inner");
  work(1000);
  ACTIVETIME_REGION_BEGIN("decode.nested");
  work(10);
  ACTIVETIME_REGION_END("decode.nested");
  ACTIVETIME_REGION_END("decode.inner");
  work(5);
}

NOINLINE void leaves_region_open(void) {
  ACTIVETIME_REGION_BEGIN("leaked");
  work(3);
}

int main(void) {
  printf("present %d enabled %d\n", activetime_present(), activetime_enabled());
  for (int i = 0; i < 3; ++i)
    decode();
  hidden();
  render();
  leaves_region_open();
  ACTIVETIME_REGION_END("nothing-open");
  printf("was %d\n", activetime_set_enabled(0));
  work(3);               // not recorded; its exit is not "unmatched"
  printf("was %d\n", activetime_set_enabled(1));
  printf("flush %d\n", activetime_flush());
  return 0;
}

// OUT: present 1 enabled 1
// OUT-NEXT: was 1
// OUT-NEXT: was 0
// OUT-NEXT: flush 0

// At -O2 the last call of decode, render and leaves_region_open (and of the
// uninstrumented hidden) is a tail call: the function's frame, and the
// region it opened, close before the jump, so that work(...) runs under
// main, as the uninstrumented stack has it.
// TREE:      1 main{{$}}
// TREE-NEXT: 3 main > decode{{$}}
// TREE-NEXT: 3 main > decode > decode.inner{{$}}
// TREE-NEXT: 3 main > decode > decode.inner > decode.nested{{$}}
// TREE-NEXT: 3 main > decode > decode.inner > decode.nested > work{{$}}
// TREE-NEXT: 3 main > decode > decode.inner > work{{$}}
// TREE-NEXT: 1 main > frame{{$}}
// TREE-NEXT: 1 main > leaves_region_open{{$}}
// TREE-NEXT: 1 main > leaves_region_open > leaked{{$}}
// TREE-NEXT: 6 main > work{{$}}
// TREE-NOT: {{.}}

// The region left open is closed with its function (as unwound); the end of
// "nothing-open" is the one unmatched exit.
// REPORT: unwound frames: 1
// REPORT: unmatched exits: 1
// REPORT: decode.inner{{ +}}regions.c:24
