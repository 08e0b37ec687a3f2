// An inline function with a guarded static local, emitted in two
// translation units: the function and its guard variable are COMDAT groups
// the linker keeps once; the local is initialized once, on first use.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clangxx -O2 -g a.cpp b.cpp -o plain && ./plain > plain.out
// RUN: %at_cxx -O0 -g a.cpp b.cpp -o bfd0 && ./bfd0 | diff plain.out -
// RUN: %at_cxx -O2 -g a.cpp b.cpp -o bfd2 && ./bfd2 | diff plain.out -
// RUN: %at_cxx -O2 -g -fuse-ld=lld a.cpp b.cpp -o lld2 && ./lld2 | diff plain.out -
// RUN: %activetime report activetime.bfd0.*.raw | FileCheck %s
// RUN: %activetime report activetime.lld2.*.raw | FileCheck %s

// The initializer runs once; counter() is called from both units.
// CHECK-DAG:  1 {{.*}} timed slow_init(...)
// CHECK-DAG:  4 {{.*}} counter()

//--- c.h
__attribute__((noinline)) inline int slow_init(int seed) {
  int x = seed;
  for (int i = 0; i < 100; ++i)
    x = x * 31 + i;
  return x;
}
__attribute__((noinline)) inline int counter() {
  static int base = slow_init(7);
  static thread_local int calls;
  return base + ++calls;
}

//--- a.cpp
#include "c.h"
#include <cstdio>
int from_b();
int main() {
  int a = counter(), b = counter();
  std::printf("%d %d %d\n", a, b, from_b());
}

//--- b.cpp
#include "c.h"
int from_b() { return counter() + counter(); }
