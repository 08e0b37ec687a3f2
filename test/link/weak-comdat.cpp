// Weak functions, templates and inline functions (COMDAT groups) defined in
// two translation units, with and without -ffunction-sections and
// --gc-sections: each links as it does without ActiveTime, the linker's
// chosen copy is the one that runs, and every call is counted once.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clangxx -O2 -g a.cpp b.cpp -o plain && ./plain > plain.out
// RUN: %at_cxx -O0 -g a.cpp b.cpp -o bfd0 && ./bfd0 | diff plain.out -
// RUN: %at_cxx -O2 -g a.cpp b.cpp -o bfd2 && ./bfd2 | diff plain.out -
// RUN: %at_cxx -O2 -g -ffunction-sections -fdata-sections -Wl,--gc-sections a.cpp b.cpp -o gc && ./gc | diff plain.out -
// RUN: %at_cxx -O2 -g -ffunction-sections -fdata-sections -fuse-ld=lld -Wl,--gc-sections a.cpp b.cpp -o lldgc && ./lldgc | diff plain.out -
// RUN: %activetime report activetime.bfd0.*.raw | FileCheck %s
// RUN: %activetime report activetime.gc.*.raw | FileCheck %s
// RUN: %activetime report activetime.lldgc.*.raw | FileCheck %s

// The weak definition of a.cpp loses to b.cpp's strong one: both tables
// list hook, and its location is that of the copy that ran.
// CHECK-DAG:  3 {{.*}} hook(...) {{.*}}b.cpp
// CHECK-DAG:  3 {{.*}} scale<...>(int)
// CHECK-DAG:  1 {{.*}} scale<...>(double)
// CHECK-DAG:  2 {{.*}} shared_inline(...)
// CHECK-NOT:  unused_weak

//--- h.h
template <class T> __attribute__((noinline)) T scale(T x) { return x * T(3); }
__attribute__((noinline)) inline int shared_inline(int x) { return scale(x) + 1; }
int hook(int);

//--- a.cpp
#include "h.h"
#include <cstdio>
__attribute__((weak, noinline)) int hook(int x) { return -x; }
__attribute__((weak, noinline)) int unused_weak(int x) { return x; }
int from_b(int);
int main(int argc, char **) {
  int r = shared_inline(argc) + hook(1) + hook(2) + scale(argc);
  std::printf("%d %d\n", r, from_b(argc));
}

//--- b.cpp
#include "h.h"
__attribute__((noinline)) int hook(int x) { return x * 10; }
int from_b(int x) { return shared_inline(x) + hook(x) + (int)scale(2.0); }
