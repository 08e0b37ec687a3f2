// ThinLTO and full LTO: the pass instruments the pre-link modules; the link
// drops the groups other modules provide and may run GlobalOpt, whose
// constructor evaluation must not fold the address store of a COMDAT
// initializer into the table (it would refer into the dropped group again).
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clangxx -O2 -g a.cpp b.cpp -o plain && ./plain > plain.out
// RUN: %at_cxx -O2 -g -flto=thin -fuse-ld=lld a.cpp b.cpp -o thin && ./thin | diff plain.out -
// RUN: %at_cxx -O0 -g -flto=thin -fuse-ld=lld a.cpp b.cpp -o thin0 && ./thin0 | diff plain.out -
// RUN: %at_cxx -O2 -g -flto -fuse-ld=lld a.cpp b.cpp -o full && ./full | diff plain.out -
// RUN: %activetime report --callers activetime.thin.*.raw | FileCheck %s
// RUN: %activetime report --callers activetime.full.*.raw | FileCheck %s

// CHECK-DAG:  1 {{.*}} timed __cxx_global_var_init{{(\.[0-9]+)?}} {{a|b}}.cpp
// CHECK-DAG:  2 {{.*}} timed describe(...)
// CHECK-LABEL: describe(...)  (calls 2
// CHECK:        callers:
// CHECK-DAG:      1 {{.*}} __cxx_global_var_init{{(\.[0-9]+)?}}  g.h:7
// CHECK-DAG:      1 {{.*}} main  a.cpp:5

//--- g.h
#include <string>
__attribute__((noinline)) inline std::string describe(int n) {
  return "n=" + std::to_string(n);
}
template <class T> struct Box { static std::string v; };
template <class T> std::string Box<T>::v =
    describe(sizeof(T));

//--- a.cpp
#include "g.h"
#include <cstdio>
int from_b();
int main() {
  std::string s = describe(from_b());
  std::printf("%s %s\n", Box<int>::v.c_str(), s.c_str());
}

//--- b.cpp
#include "g.h"
int from_b() { return (int)Box<int>::v.size(); }
