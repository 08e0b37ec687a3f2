// Several modules in one process: an instrumented shared library linked at
// start-up, and a copy of it dlopen'ed and dlclose'd mid-run (its table is
// captured at dlclose and still named in the report).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -fPIC -shared %S/Inputs/shlib.c -o libshlib.so
// RUN: cp libshlib.so libshlib-copy.so
// RUN: %at_cc -O2 -g %s -o shlib ./libshlib.so -Wl,-rpath,%t -ldl
// Two copies of one library define the same globals: an ODR violation to
// ASan in sanitizer builds, by construction of this test.
// RUN: env ASAN_OPTIONS=detect_leaks=0:detect_odr_violation=0 ./shlib %t/libshlib-copy.so | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json activetime.shlib.*.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report --top 0 activetime.shlib.*.raw | FileCheck --check-prefix=FLAT %s
#include <dlfcn.h>
#include <stdio.h>

int lib_entry(int n);

int main(int argc, char **argv) {
  int r = lib_entry(4);
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  int (*f)(int) = (int (*)(int))dlsym(h, "lib_entry");
  r += f(6);
  dlclose(h);
  printf("r=%d\n", r);
  return 0;
}

// OUT: r=10
// Same function names from two objects: one identity per linkage name.
// TREE:      1 main{{$}}
// TREE-NEXT: 2 main > lib_entry{{$}}
// TREE-NEXT: 10 main > lib_entry > lib_leaf{{$}}
// TREE-NOT: {{.}}
// FLAT: modules: {{ *}}3
// FLAT-DAG: {{^ +}}10 {{.*}} lib_leaf {{ *}}shlib.c:4
// FLAT-DAG: {{^ +}}2 {{.*}} lib_entry {{ *}}shlib.c:5
