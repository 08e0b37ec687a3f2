// Counted calls in instrumented shared libraries (PIC: their counters live in
// the runtime's per-thread array, from each module's base slot on): a library
// linked at start-up and another dlopen'ed and dlclose'd mid-run get exact
// counts, and their short functions are switched to counting like the
// executable's. lib_leaf (linked library) runs 50000 times on the main
// thread and 30000 times on a second thread: exactly 80000 calls, counted,
// 50000 and 30000 per thread; dl_leaf (dlopen'ed library) 20000 times:
// exactly that, counted; the executable's own short function is counted
// too. Every call is timed in a node or counted, once.
// Code samples stay on: a sample of the dlopen'ed library drained after its
// dlclose must not make the runtime read the unmapped code.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -fPIC -shared %S/Inputs/shlib.c -o libshlib.so
// RUN: %at_cc -O2 -g -fPIC -shared %S/Inputs/shlib-dl.c -o libshlib-dl.so
// RUN: %at_cc -O2 -g %s -o shc ./libshlib.so -Wl,-rpath,%t -ldl -lpthread
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c), after this short program has ended.
// RUN: env ACTIVETIME_OPTIONS=output=shc.raw:calibrate_at_start=1 ./shc %t/libshlib-dl.so | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json shc.raw | python3 %S/Inputs/counts.py --threads | FileCheck --check-prefix=COUNTS %s
// RUN: %activetime report --top 0 shc.raw | FileCheck --check-prefix=FLAT %s
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
int lib_entry(int n);
volatile int sink;

NOINLINE void exe_leaf(int i) { sink += i; }

NOINLINE void *other_thread(void *arg) {
  lib_entry(30000);
  return arg;
}

int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, 0, other_thread, 0);
  pthread_join(t, 0);
  int r = lib_entry(50000);
  for (int i = 0; i < 1000; ++i)
    exe_leaf(i);
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  int (*f)(int) = (int (*)(int))dlsym(h, "dl_entry");
  r += f(20000);
  dlclose(h);
  printf("r=%d\n", r);
  return 0;
}

// OUT: r=70000

// COUNTS:      dl_entry how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// COUNTS-NEXT: dl_leaf how=counted calls=20000 counted={{[0-9]+}} timed={{16|64|256}} nodes=1 maxnode={{[0-9]+}} rel=ok
// COUNTS-NEXT: exe_leaf how=counted calls=1000 counted={{[0-9]+}} timed={{16|64|256}} nodes=1 maxnode={{[0-9]+}} rel=ok
// COUNTS-NEXT: lib_entry how=timed calls=2 counted=0 timed=2 nodes=2 maxnode=1 rel=ok
// COUNTS-NEXT: lib_leaf how=counted calls=80000 counted={{[0-9]+}} timed={{[0-9]+}} nodes=2 maxnode={{[0-9]+}} rel=ok
// COUNTS-NEXT: main how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// COUNTS-NEXT: other_thread how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok
// COUNTS-DAG:  thread dl_leaf how=counted calls=20000 counted={{(19984|19936|19744)$}}
// COUNTS-DAG:  thread lib_leaf how=counted calls=30000 counted={{(29984|29936|29744)$}}
// COUNTS-DAG:  thread lib_leaf how=counted calls=50000 counted={{(49984|49936|49744)$}}

// FLAT: modules: {{ *}}3
// FLAT-DAG: {{^ +80000 +- +- .* counted +lib_leaf +shlib.c:4$}}
// FLAT-DAG: {{^ +20000 +- +- .* counted +dl_leaf +shlib-dl.c:5$}}
