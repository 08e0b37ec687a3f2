// Block counts of a program and its shared library: one block counts
// section per linked object (each its own counters, bias and descriptor),
// both in the exported profile with LLVM's own counts; a library loaded
// with dlopen and unloaded with dlclose before exit keeps its counts.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %at_cc -O2 -g -fPIC -shared $(%activetime pgo-flags train) lib.c -o libw.so
// RUN: %at_cc -O2 -g -fPIC -shared $(%activetime pgo-flags train) plugin.c -o plugin.so
// RUN: %at_cc -O2 -g $(%activetime pgo-flags train) main.c -L. -lw -ldl -Wl,-rpath,%t -o train
// RUN: clang-%llvm_major -O2 -g -fPIC -shared -fprofile-generate lib.c -o irlib/libw.so
// RUN: clang-%llvm_major -O2 -g -fPIC -shared -fprofile-generate plugin.c -o irlib/plugin.so
// RUN: clang-%llvm_major -O2 -g -fprofile-generate main.c -L irlib -lw -ldl -Wl,-rpath,%t/irlib -o irpgo
// RUN: env ACTIVETIME_OPTIONS=output=t.raw ./train ./plugin.so > train.out
// RUN: env LLVM_PROFILE_FILE=ir.profraw ./irpgo ./irlib/plugin.so > ir.out
// RUN: diff ir.out train.out
// RUN: %activetime export --format=pgo -o t.profdata t.raw
// RUN: llvm-profdata merge -o ir.profdata ir.profraw
// RUN: llvm-profdata show --all-functions --counts t.profdata | grep -E '^  [^ TV].*:$|Hash|Counters|Block counts' > t.txt
// RUN: llvm-profdata show --all-functions --counts ir.profdata | grep -E '^  [^ TV].*:$|Hash|Counters|Block counts' > ir.txt
// RUN: diff ir.txt t.txt
// RUN: FileCheck %s < t.txt
// CHECK-DAG: {{^  }}lib_work:
// CHECK-DAG: {{^  }}plugin_work:
// CHECK-DAG: {{^  }}main:

//--- lib.c
int lib_work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i & 1)
      s += i;
    else
      s -= 1;
  return s;
}

//--- plugin.c
int plugin_work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i % 3 ? i : -i;
  return s;
}

//--- main.c
#include <dlfcn.h>
#include <stdio.h>
int lib_work(int n);
int main(int argc, char **argv) {
  int s = 0;
  for (int k = 0; k < 10; k++)
    s += lib_work(1000 + k);
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h)
    return 1;
  int (*pw)(int) = (int (*)(int))dlsym(h, "plugin_work");
  s += pw(5000);
  dlclose(h);
  printf("%d\n", s);
  return 0;
}

//--- irlib/.keep
