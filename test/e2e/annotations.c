// Opting functions out from the source and from a list, through the wrapper
// (which loads the pass, its options and the clang plugin).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: printf '[deny]\nfun:listed_out\n' > deny.txt
// RUN: %at_cc -O2 -g %s -o annot -mllvm -activetime-list=deny.txt
// RUN: ./annot | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.annot.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile int sink;

NOINLINE void kept(void) { sink += 1; }
NOINLINE __attribute__((no_instrument_function)) void attributed_out(void) {
  kept();                 // still seen, now directly under main
}
NOINLINE void listed_out(void) { kept(); }

int main(void) {
  attributed_out();
  listed_out();
  kept();
  printf("ok\n");
  return 0;
}

// OUT: ok
// TREE:      1 main{{$}}
// TREE-NEXT: 3 main > kept{{$}}
// TREE-NOT: {{.}}
