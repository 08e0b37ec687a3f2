// C++: ACTIVETIME_REGION lasts for its scope, also when an exception leaves
// it; regions of one name from several call sites are one entry; a function
// region attribute on a method; an excluded method is not in the tree.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cxx -std=c++17 -O2 -g %s -o regionsxx
// RUN: ./regionsxx | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.regionsxx.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
#include <activetime/activetime.h>
#include <cstdio>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))
volatile int sink;

NOINLINE void work(int n) {
  for (int i = 0; i < n; ++i)
    sink += i;
}
NOINLINE void fail() { throw std::runtime_error("x"); }

struct Codec {
  [[activetime::region("Codec::frame")]] NOINLINE void frame() {
    ACTIVETIME_REGION("parse");
    work(100);
  }
  [[activetime::no_instrument]] NOINLINE void quiet() { work(1); }
};

NOINLINE void throwing() {
  ACTIVETIME_REGION("parse");
  work(5);
  fail();
}

int main() {
  std::printf("present %d\n", activetime_present());
  Codec C;
  for (int i = 0; i < 2; ++i)
    C.frame();
  C.quiet();
  try {
    throwing();
  } catch (const std::exception &) {
    std::printf("caught\n");
  }
  {
    ACTIVETIME_REGION("scope");
    work(2);
  }
  return 0;
}

// OUT: present 1
// OUT-NEXT: caught

// TREE:      1 main{{$}}
// TREE-NEXT: 2 main > Codec::frame{{$}}
// TREE-NEXT: 2 main > Codec::frame > parse{{$}}
// TREE-NEXT: 2 main > Codec::frame > parse > work(int){{$}}
// TREE-NEXT: 1 main > scope{{$}}
// TREE-NEXT: 1 main > scope > work(int){{$}}
// TREE-NEXT: 1 main > throwing(){{$}}
// TREE-NEXT: 1 main > throwing() > parse{{$}}
// TREE-NEXT: 1 main > throwing() > parse > fail(){{$}}
// TREE-NEXT: 1 main > throwing() > parse > work(int){{$}}
// TREE-NEXT: 1 main > work(int){{$}}
// TREE-NOT: {{.}}
