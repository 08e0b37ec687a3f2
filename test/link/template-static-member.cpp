// A template's static data member with a dynamic initializer, instantiated
// in two translation units: like an inline variable, its initializer is a
// local function in the member's COMDAT group, which the linker keeps once.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clangxx -O2 -g a.cpp b.cpp -o plain && ./plain > plain.out
// RUN: %at_cxx -O0 -g a.cpp b.cpp -o bfd0 && ./bfd0 | diff plain.out -
// RUN: %at_cxx -O2 -g a.cpp b.cpp -o bfd2 && ./bfd2 | diff plain.out -
// RUN: %at_cxx -O2 -g -fuse-ld=lld a.cpp b.cpp -o lld2 && ./lld2 | diff plain.out -
// RUN: %activetime report --callers activetime.bfd2.*.raw | FileCheck %s
// RUN: %activetime report --callers activetime.lld2.*.raw | FileCheck %s

// Two instantiations, each initialized once; the initializers' calls are
// placed at their line, so their addresses are known.
// CHECK-DAG:  1 {{.*}} timed __cxx_global_var_init{{(\.[0-9]+)?}} {{a|b}}.cpp
// CHECK-DAG:  1 {{.*}} timed __cxx_global_var_init{{(\.[0-9]+)?}} {{a|b}}.cpp
// CHECK-DAG:  3 {{.*}} timed make_name(...)
// CHECK-LABEL: make_name(...)  (calls 3
// CHECK:        callers:
// CHECK-DAG:      1 {{.*}} __cxx_global_var_init{{(\.[0-9]+)?}}  t.h:9
// CHECK-DAG:      1 {{.*}} __cxx_global_var_init{{(\.[0-9]+)?}}  t.h:9
// CHECK-DAG:      1 {{.*}} main  a.cpp:5

//--- t.h
#include <string>

__attribute__((noinline)) inline std::string make_name(unsigned n) {
  return "size " + std::to_string(n);
}

template <class T> struct Named { static std::string name; };
template <class T> std::string Named<T>::name =
    make_name(sizeof(T));

//--- a.cpp
#include "t.h"
#include <cstdio>
int from_b();
int main() {
  std::string s = make_name(from_b());
  std::printf("%s %s %s\n", Named<int>::name.c_str(), Named<double>::name.c_str(), s.c_str());
}

//--- b.cpp
#include "t.h"
int from_b() { return (int)(Named<int>::name.size() + Named<double>::name.size()); }
