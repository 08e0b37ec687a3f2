// An inline variable with a dynamic initializer, defined by a header that two
// translation units include: its initializer is a local function in the
// variable's COMDAT group, and the linker keeps one group. The module table
// must not refer into the group it discards (GNU ld: "defined in discarded
// section", lld: "relocation refers to a discarded section"); the address is
// stored by a constructor in the group itself.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clangxx -O2 -g a.cpp b.cpp -o plain && ./plain > plain.out
// RUN: %at_cxx -O2 -g -fpass-plugin=%pass_plugin -S -emit-llvm b.cpp -o b.ll
// RUN: FileCheck --check-prefix=IR %s < b.ll
// RUN: %at_cxx -O0 -g a.cpp b.cpp -o bfd0 && ./bfd0 | diff plain.out -
// RUN: %at_cxx -O2 -g a.cpp b.cpp -o bfd2 && ./bfd2 | diff plain.out -
// RUN: %at_cxx -O2 -g -fuse-ld=lld a.cpp b.cpp -o lld2 && ./lld2 | diff plain.out -
// RUN: %activetime report --callers activetime.bfd2.*.raw | FileCheck --check-prefix=REPORT %s
// RUN: %activetime report --callers activetime.lld2.*.raw | FileCheck --check-prefix=REPORT %s

// The table entry of the initializer is null, the table writable; the
// constructor that fills it is in the variable's group, keyed on it, and
// its store is volatile so that no later pass folds it into the table.
// IR:      @__activetime_funcs = internal global {{.*}} { ptr null, ptr @{{[^,]*}}, ptr @{{[^,]*}}, i32 {{[0-9]+}}, i32 1 }
// IR:      @llvm.global_ctors = {{.*}} { i32 1, ptr @activetime.addr_ctor, ptr @_Z5totalB5cxx11 }
// IR:      define internal void @__cxx_global_var_init() {{.*}}comdat($_Z5totalB5cxx11)
// IR:      define internal void @activetime.addr_ctor() {{.*}}comdat($_Z5totalB5cxx11)
// IR-NEXT:   store volatile ptr @__cxx_global_var_init, ptr @__activetime_funcs

// Counted once (one group kept), and its address is known: the call it
// makes is placed at its line.
// REPORT:      calls {{.*}} function
// REPORT-DAG:  1 {{.*}} timed __cxx_global_var_init {{a|b}}.cpp
// REPORT-DAG:  2 {{.*}} describe(...)
// REPORT-LABEL: describe(...)  (calls 2
// REPORT:        callers:
// REPORT-DAG:      1 {{.*}} __cxx_global_var_init  g.h:8
// REPORT-DAG:      1 {{.*}} main  a.cpp:5

//--- g.h
#include <string>

__attribute__((noinline)) inline std::string describe(int n) {
  return "n=" + std::to_string(n);
}

inline std::string total =
    describe(42);

//--- a.cpp
#include "g.h"
#include <cstdio>
int from_b();
int main() {
  std::string s = describe(from_b());
  std::printf("%s %s\n", total.c_str(), s.c_str());
}

//--- b.cpp
#include "g.h"
int from_b() { return (int)total.size(); }
