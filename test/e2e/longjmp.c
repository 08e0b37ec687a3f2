// longjmp out of instrumented frames: the runtime closes the abandoned frames
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O0 -g %s -o lj0 && ./lj0 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.lj0.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report activetime.lj0.*.raw | FileCheck --check-prefix=REPAIR %s
// RUN: %at_cc -O2 -g %s -o lj2 && ./lj2 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.lj2.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report activetime.lj2.*.raw | FileCheck --check-prefix=REPAIR %s
// (counted as unwound) and the call tree stays correct afterwards.
#include <setjmp.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
static jmp_buf env;
volatile int sink;

NOINLINE void deep(int i) {
  sink += i;
  longjmp(env, 1);
}
NOINLINE void mid(int i) { deep(i); sink += 1; }
NOINLINE void after(void) { sink += 2; }

NOINLINE int jumper(void) {
  int n = 0;
  for (volatile int i = 0; i < 5; ++i) {
    if (setjmp(env) == 0)
      mid(i);            // never returns normally
    else
      ++n;
    after();             // called from jumper, not from a stale mid/deep
  }
  return n;
}

int main(void) {
  int n = jumper();
  after();
  printf("jumps=%d\n", n);
  return 0;
}

// OUT: jumps=5
// after() hangs under jumper, never under the abandoned mid/deep frames.
// TREE:      1 main{{$}}
// TREE-NEXT: 1 main > after{{$}}
// TREE-NEXT: 1 main > jumper{{$}}
// TREE-NEXT: 5 main > jumper > after{{$}}
// TREE-NEXT: 5 main > jumper > mid{{$}}
// TREE-NEXT: 5 main > jumper > mid > deep{{$}}
// TREE-NOT: {{.}}
// Five jumps, each abandoning a mid and a deep frame.
// REPAIR: unwound frames: {{ *}}10 
