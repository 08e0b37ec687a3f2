// The same exact profile whichever way the program is built and linked:
// -flto (instrumented in the pre-link compile), the shared runtime, and next
// to AddressSanitizer (whose runtime carries its own sanitizer_common).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -flto %s -o lto && ./lto | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.lto.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %at_cc --activetime-shared-runtime -O2 -g %s -o shared && ./shared | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.shared.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %at_cc -O1 -g -fsanitize=address %s -o asan && ./asan | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.asan.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
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
// TREE:      1 main{{$}}
// TREE-NEXT: 7 main > branch{{$}}
// TREE-NEXT: 21 main > branch > leaf{{$}}
// TREE-NOT: {{.}}
