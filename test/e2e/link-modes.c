// The same exact profile whichever way the program is built and linked:
// -flto (instrumented in the pre-link compile), the shared runtime, and next
// to AddressSanitizer (whose runtime carries its own sanitizer_common). The
// flat call counts are exact in the default mode (leaf ends up counted); the
// exact tree is checked with every call timed (timing_ratio=0).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -flto %s -o lto && env ACTIVETIME_OPTIONS=output=lto.raw ./lto | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json lto.raw | python3 %S/Inputs/flatcalls.py | FileCheck --check-prefix=FLAT %s
// RUN: env ACTIVETIME_OPTIONS=output=lto-t.raw:timing_ratio=0 ./lto | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json lto-t.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %at_cc --activetime-shared-runtime -O2 -g %s -o shared && env ACTIVETIME_OPTIONS=output=shared.raw ./shared | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json shared.raw | python3 %S/Inputs/flatcalls.py | FileCheck --check-prefix=FLAT %s
// RUN: env ACTIVETIME_OPTIONS=output=shared-t.raw:timing_ratio=0 ./shared | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json shared-t.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %at_cc -O1 -g -fsanitize=address %s -o asan && env ACTIVETIME_OPTIONS=output=asan.raw ./asan | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json asan.raw | python3 %S/Inputs/flatcalls.py | FileCheck --check-prefix=FLAT %s
// RUN: env ACTIVETIME_OPTIONS=output=asan-t.raw:timing_ratio=0 ./asan | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json asan-t.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// REQUIRES: shared-runtime
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile int sink;

NOINLINE void leaf(int i) { sink += i; }
NOINLINE void branch(int n) {
  for (int i = 0; i < n; ++i)
    leaf(i);
}

int main(void) {
  for (int i = 0; i < 7; ++i)
    branch(3);
  printf("sink=%d\n", sink);
  return 0;
}

// OUT: sink=21
// FLAT:      7 branch{{$}}
// FLAT-NEXT: 21 leaf{{$}}
// FLAT-NEXT: 1 main{{$}}
// FLAT-NOT: {{.}}
// TREE:      1 main{{$}}
// TREE-NEXT: 7 main > branch{{$}}
// TREE-NEXT: 21 main > branch > leaf{{$}}
// TREE-NOT: {{.}}
