// Stride profiling end to end: kernels whose strides the compiler
// cannot see, each reported with its class and stride, with the default skip
// and inspect phases and with every execution inspected (stride_skip=0).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -fno-unroll-loops -mllvm -activetime-strides %s -o strides
// RUN: ./strides | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --strides activetime.strides.*.raw | FileCheck %s --check-prefixes=CHECK,PHASED
// RUN: %activetime report --strides --json activetime.strides.*.raw | python3 -c "import json,sys; print(sorted((r['probe_lead'] > 0, r['lead_offset'], r['executions']) for r in json.load(sys.stdin)['strides'] if r['function'] == 'list_kernel'))" | FileCheck %s --check-prefix=LEAD
// LEAD: [(False, 0, [[E:[0-9]+]]), (True, -8, [[E]])]
// RUN: mkdir all && cd all && env ACTIVETIME_OPTIONS=stride_skip=0 ../strides | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --strides activetime.strides.*.raw | FileCheck %s --check-prefixes=CHECK,ALL
// Without -activetime-strides there are no sites.
// RUN: cd %t && %at_cc -O2 -g %s -o plain && ./plain | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --strides activetime.plain.*.raw | FileCheck %s --check-prefix=NOSITES

// OUT: checksum 3000240
// NOSITES: Memory access sites: 0 (0 dynamic, 0 static)
// NOSITES-NEXT: no site tables in the profile

// CHECK: Memory access sites: {{[0-9]+}} ({{[0-9]+}} dynamic, {{[0-9]+}} static; 1 dynamic measured by another site's probe at a constant offset)
// CHECK-NEXT: location function access stride elems class confidence observed executions gcd iter kind
#include <stdio.h>
#include <stdlib.h>

#define N 20000
#define REPS 10
#define NOINLINE __attribute__((noinline))
volatile int calls; // keeps the kernels impure: each call really runs

struct S48 { long a, b, c, d, e, f; };     // 48 bytes
struct Node { struct Node *next; long v, pad[2]; }; // 32 bytes

// a[idx[i]] with idx[i] = i: unit stride (8 bytes, 1 element). idx[i] itself
// is affine: a static unit site, no probe.
// ALL-DAG: strides.c:[[#@LINE+2]]:{{[0-9]+}} unit_kernel load 8 8 1 unit {{[0-9.]+}}% [[N:[0-9]+]] [[N]] 8 {{.*}} dynamic
// PHASED-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} unit_kernel load 8 8 1 unit {{[0-9.]+}}% {{[0-9]+}} 200000 8 {{.*}} dynamic
NOINLINE long unit_kernel(long *a, int *idx) { calls++; long s = 0; for (int i = 0; i < N; ++i) s += a[idx[i]]; return s; }
// CHECK-DAG: strides.c:[[#@LINE-1]]:{{[0-9]+}} unit_kernel load 4 4 1 unit - - - - - static

// s[idx[i]].c over 48-byte structs: constant 48 bytes, 6 elements.
// CHECK-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} struct_kernel load 8 48 6 constant {{[0-9.]+}}% {{.*}} 48 {{.*}} dynamic
NOINLINE long struct_kernel(struct S48 *s, int *idx) { calls++; long t = 0; for (int i = 0; i < N; ++i) t += s[idx[i]].c; return t; }

// a[idx[i]] with idx[i] = N-1-i: unit class, stride -8.
// CHECK-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} backward_kernel load 8 -8 -1 unit {{[0-9.]+}}% {{.*}} dynamic
NOINLINE long backward_kernel(long *a, int *rev) { calls++; long s = 0; for (int i = 0; i < N; ++i) s += a[rev[i]]; return s; }

// Through an index array with idx[i] = 3*i: constant 24 bytes, 3 elements.
// CHECK-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} index3_kernel load 8 24 3 constant {{[0-9.]+}}% {{.*}} dynamic
NOINLINE long index3_kernel(long *a, int *idx3) { calls++; long s = 0; for (int i = 0; i < N; ++i) s += a[idx3[i]]; return s; }

// A linked list whose nodes sit 32 bytes apart: p->v and p->next both at
// constant 32, 4 elements. p->next, always 8 bytes below p->v and later in
// the block, has no probe of its own: p->v's measures it (the same figures).
// CHECK-DAG: strides.c:[[#@LINE+2]]:{{[0-9]+}} list_kernel load 8 32 4 constant [[LIST:[0-9.]+% [0-9]+ [0-9]+]] {{.*}} dynamic
// CHECK-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} list_kernel load 8 32 4 constant [[LIST]] {{.*}} dynamic
NOINLINE long list_kernel(struct Node *p) { calls++; long s = 0; while (p) { s += p->v; p = p->next; } return s; }

// Random indices: irregular, no stride.
// CHECK-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} random_kernel load 8 - - irregular {{[0-9.]+}}% {{.*}} dynamic
NOINLINE long random_kernel(long *a, int *rnd) { calls++; long s = 0; for (int i = 0; i < N; ++i) s += a[rnd[i]]; return s; }

// The same address every time through a pointer the compiler cannot see is
// loop-invariant: uniform.
// CHECK-DAG: strides.c:[[#@LINE+1]]:{{[0-9]+}} uniform_kernel load 8 0 0 uniform {{[0-9.]+}}% {{.*}} dynamic
NOINLINE long uniform_kernel(long *a, int *zero) { calls++; long s = 0; for (int i = 0; i < N; ++i) s += a[zero[i]]; return s; }

// CHECK: stride in bytes, elems = stride / access size
// The probe gap the process measured: at least one tick.
// CHECK-SAME: (call, return, a tick read: {{([1-9][0-9]*\.[0-9]|0\.[1-9])}} ns, measured by the process)

int main(void) {
  long *a = calloc(3 * N, sizeof(long));
  int *idx = malloc(N * sizeof(int)), *rev = malloc(N * sizeof(int));
  int *idx3 = malloc(N * sizeof(int)), *rnd = malloc(N * sizeof(int));
  int *zero = calloc(N, sizeof(int));
  struct S48 *s = calloc(N, sizeof(struct S48));
  struct Node *nodes = calloc(N, sizeof(struct Node));
  unsigned x = 12345;
  for (int i = 0; i < 3 * N; ++i)
    a[i] = i % 7;
  for (int i = 0; i < N; ++i) {
    idx[i] = i, rev[i] = N - 1 - i, idx3[i] = 3 * i;
    x = x * 1103515245u + 12345u;
    rnd[i] = (x >> 8) % N;
    s[i].c = i % 5;
    nodes[i].v = i % 3;
    nodes[i].next = i + 1 < N ? &nodes[i + 1] : NULL;
  }
  long t = 0;
  for (int r = 0; r < REPS; ++r)
    t += unit_kernel(a, idx) + struct_kernel(s, idx) + backward_kernel(a, rev) +
         index3_kernel(a, idx3) + list_kernel(nodes) + random_kernel(a, rnd) +
         uniform_kernel(a, zero);
  printf("checksum %ld\n", t);
  return 0;
}
