// C++ exceptions unwind through instrumented frames: every frame is closed by
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cxx -O0 -g %s -o exc0 && ./exc0 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.exc0.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report activetime.exc0.*.raw | FileCheck --check-prefix=CLEAN %s
// RUN: %at_cxx -O2 -g %s -o exc2 && ./exc2 | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.exc2.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report activetime.exc2.*.raw | FileCheck --check-prefix=CLEAN %s
// its cleanup, nothing is left stale, counts are exact.
#include <cstdio>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))
volatile int sink;

NOINLINE void thrower(int i) {
  sink += i;
  if (i % 3 == 0)
    throw std::runtime_error("boom");
}
NOINLINE void pass_through(int i) { thrower(i); sink += 1; }
NOINLINE int catcher(int n) {
  int caught = 0;
  for (int i = 0; i < n; ++i) {
    try {
      pass_through(i);
    } catch (const std::exception &) {
      ++caught;
    }
  }
  return caught;
}
NOINLINE void after() { sink += 2; }

int main() {
  int c = catcher(9);   // i = 0, 3, 6 throw
  after();
  std::printf("caught=%d\n", c);
  return 0;
}

// OUT: caught=3
// TREE:      1 main{{$}}
// TREE-NEXT: 1 main > after(){{$}}
// TREE-NEXT: 1 main > catcher(int){{$}}
// TREE-NEXT: 9 main > catcher(int) > pass_through(int){{$}}
// TREE-NEXT: 9 main > catcher(int) > pass_through(int) > thrower(int){{$}}
// TREE-NOT: {{.}}
// Exits on the unwind path close the frames: nothing needs repair.
// CLEAN-NOT: unwound frames
// CLEAN-NOT: unmatched exits
// CLEAN: main
