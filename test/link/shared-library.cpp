// A -fPIC shared library and the executable that links it both define the
// same inline variable and inline functions: each object keeps its own
// copy of the group (the executable's wins for the interposable globals),
// and both link and run as without ActiveTime.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clangxx -O2 -g -fPIC -shared lib.cpp -o libplain.so
// RUN: %clangxx -O2 -g main.cpp -L. -lplain -Wl,-rpath,%t -o plain && ./plain > plain.out
// RUN: %at_cxx -O2 -g -fPIC -shared lib.cpp -o libinst.so
// RUN: %at_cxx -O2 -g main.cpp -L. -linst -Wl,-rpath,%t -o inst && ./inst | diff plain.out -
// RUN: %at_cxx -O0 -g -fPIC -shared -fuse-ld=lld lib.cpp -o libinst0.so
// RUN: %at_cxx -O0 -g -fuse-ld=lld main.cpp -L. -linst0 -Wl,-rpath,%t -o inst0 && ./inst0 | diff plain.out -
// RUN: %activetime report activetime.inst.*.raw | FileCheck %s
// RUN: %activetime report activetime.inst0.*.raw | FileCheck %s

// The variable is initialized once for the process (both objects'
// initializers run; the second finds the guard set), and the library's
// function is counted in the library.
// CHECK-DAG:  {{ 2 }}{{.*}} describe(...)
// CHECK-DAG:  {{ 1 }}{{.*}} in_library()

//--- g.h
#include <string>
__attribute__((noinline)) inline std::string describe(int n) {
  return "n=" + std::to_string(n);
}
inline std::string label = describe(7);

//--- lib.cpp
#include "g.h"
__attribute__((noinline)) int in_library() { return (int)describe((int)label.size()).size(); }

//--- main.cpp
#include "g.h"
#include <cstdio>
int in_library();
int main() { std::printf("%s %d\n", label.c_str(), in_library()); }
