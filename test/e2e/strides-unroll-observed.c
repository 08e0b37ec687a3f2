// Unrolled copies the pass cannot prove: a[idx[i]] and p[i]->v unrolled 4
// times are 4 sites whose addresses differ by loaded values, so SCEV proves
// no offset; the pass makes them an unproven copy group, the runtime
// measures each copy's offset from the copy before it in the same
// iteration, and report --strides folds them into one row at the source
// stride (56, -48) when those offsets are steps of it: "x4 observed", JSON
// "fold": "run-time" (a proven group: "x4", "compile-time"). --per-copy shows
// the copies (224, -192) at their observed offsets (#G~+OFF). Copies whose
// offsets do not fit stay unfolded with a note saying why: a random
// permutation (no stride per copy), and idx[4k + j] = 28k + 0, 7, 14, 22
// (constant offsets that are no steps of 56). With every execution
// inspected and with the default skip/inspect phases.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -mllvm -activetime-strides %s -o observed
// RUN: env ACTIVETIME_OPTIONS=output=all.raw:stride_skip=0 ./observed
// RUN: env ACTIVETIME_OPTIONS=output=phased.raw ./observed
// RUN: %activetime report --strides all.raw | FileCheck %s
// RUN: %activetime report --strides phased.raw | FileCheck %s
// RUN: %activetime report --strides --per-copy all.raw | FileCheck %s --check-prefix=COPY
// RUN: %activetime report --strides --per-copy phased.raw | FileCheck %s --check-prefix=COPY
// RUN: %activetime report --strides --per-copy phased.raw | FileCheck %s --check-prefix=NOFOLD
// RUN: %activetime report --strides --json all.raw > all.json
// RUN: %activetime report --strides --json phased.raw > phased.json
// RUN: python3 -c "import json,sys; [print('row', s['function'], s['stride'], s['unroll'], s['copy_stride'], s['fold'], s['fold_note']) for s in json.load(open(sys.argv[1]))['strides'] if s['unroll'] > 1 or s['fold_note']]" all.json | FileCheck %s --check-prefix=JSON
// RUN: python3 -c "import json,sys; [print('row', s['function'], s['stride'], s['unroll'], s['copy_stride'], s['fold'], s['fold_note']) for s in json.load(open(sys.argv[1]))['strides'] if s['unroll'] > 1 or s['fold_note']]" phased.json | FileCheck %s --check-prefix=JSON
// RUN: %activetime report --strides --json --per-copy phased.raw > copies.json
// RUN: python3 -c "import json,sys; [print('copy', s['function'], s['stride'], s['copy_proven'], s['observed_offset'], s['prev_offset']) for s in json.load(open(sys.argv[1]))['strides'] if s['copy_proven'] is False]" copies.json | FileCheck %s --check-prefix=JSONCOPY

// NOFOLD: Memory access sites:
// NOFOLD-NOT: x4
// CHECK: Unrolled copies: {{[0-9]+}} source accesses folded into one row each (2 by offsets observed at run time; --per-copy: one row per site)
#include <stdlib.h>

#define N 4096
#define NOINLINE __attribute__((noinline))
struct S56 { long a, b, c, d, e, f, g; };   // 56 bytes
struct Node { long pad[2], v, more[3]; }; // 48 bytes
volatile int calls; // each call runs: the kernels only read memory
volatile long sink;

// Proven: the copies of s[i].c differ by constants (static, compile-time).
// CHECK-DAG: strides-unroll-observed.c:[[#@LINE+5]]:{{[0-9]+}} forward load 8 56 7 constant - - - - - static x4{{$}}
// JSON-DAG: row forward 56 4 224 compile-time None
NOINLINE long forward(const struct S56 *s, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i) t += s[i].c;
  return t;
}

// idx[i] = 7 * i over 8-byte elements: each copy strides 224, 56 bytes
// past the one before.
// CHECK-DAG: strides-unroll-observed.c:[[#@LINE+11]]:{{[0-9]+}} indirect load 8 56 7 constant {{[0-9.]+}}% {{[0-9]+}} {{[0-9]+}} - {{.*}} dynamic x4 observed
// COPY-DAG: strides-unroll-observed.c:[[#@LINE+10]]:{{[0-9]+}} indirect load 8 224 28 constant {{.*}} dynamic #[[#IND:]]~+0{{$}}
// COPY-DAG: strides-unroll-observed.c:[[#@LINE+9]]:{{[0-9]+}} indirect load 8 224 28 constant {{.*}} dynamic #[[#IND]]~+56{{$}}
// COPY-DAG: strides-unroll-observed.c:[[#@LINE+8]]:{{[0-9]+}} indirect load 8 224 28 constant {{.*}} dynamic #[[#IND]]~+112{{$}}
// COPY-DAG: strides-unroll-observed.c:[[#@LINE+7]]:{{[0-9]+}} indirect load 8 224 28 constant {{.*}} dynamic #[[#IND]]~+168{{$}}
// JSON-DAG: row indirect 56 4 224 run-time None
// JSONCOPY-DAG: copy indirect 224 False 0 0
// JSONCOPY-DAG: copy indirect 224 False 168 56
NOINLINE long indirect(const long *a, const int *idx, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i) t += a[idx[i]];
  return t;
}

// Nodes laid out backwards 48 bytes apart, reached through an array of
// pointers.
// CHECK-DAG: strides-unroll-observed.c:[[#@LINE+7]]:{{[0-9]+}} nodes load 8 -48 -6 constant {{[0-9.]+}}% {{[0-9]+}} {{[0-9]+}} - {{.*}} dynamic x4 observed
// COPY-DAG: strides-unroll-observed.c:[[#@LINE+6]]:{{[0-9]+}} nodes load 8 -192 -24 constant {{.*}} dynamic #[[#NOD:]]~+0{{$}}
// COPY-DAG: strides-unroll-observed.c:[[#@LINE+5]]:{{[0-9]+}} nodes load 8 -192 -24 constant {{.*}} dynamic #[[#NOD]]~-144{{$}}
// JSON-DAG: row nodes -48 4 -192 run-time None
NOINLINE long nodes(struct Node *const *p, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i) t += p[i]->v;
  return t;
}

// A random permutation: no copy has a stride; not folded.
// CHECK-DAG: note: strides-unroll-observed.c:[[#@LINE+5]]:{{[0-9]+}} shuffled: 4 copies of one source access (#{{[0-9]+}}, offsets not proven at compile time) shown unfolded: a copy has no stride (irregular or too few observations)
// JSON-DAG: row shuffled None 1 None None a copy has no stride (irregular or too few observations)
NOINLINE long shuffled(const long *a, const int *perm, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i) t += a[perm[i]];
  return t;
}

// idx[4k + j] = 28k + 0, 7, 14, 22: every copy strides 224 and the offsets
// are constant, but the source access has no stride 56: not folded.
// CHECK-DAG: note: strides-unroll-observed.c:[[#@LINE+5]]:{{[0-9]+}} uneven: 4 copies of one source access (#{{[0-9]+}}, offsets not proven at compile time) shown unfolded: offset 176 is not a multiple of 56
// JSON-DAG: row uneven 224 1 None None offset 176 is not a multiple of 56
NOINLINE long uneven(const long *a, const int *idx, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i) t += a[idx[i]];
  return t;
}

int main(void) {
  long *a = calloc(7 * N, sizeof *a);
  int *idx = malloc(N * sizeof *idx), *perm = malloc(N * sizeof *perm);
  int *uneven_idx = malloc(N * sizeof *uneven_idx);
  struct Node *pool = calloc(N, sizeof *pool);
  struct Node **p = malloc(N * sizeof *p);
  static const int Steps[4] = {0, 7, 14, 22};
  unsigned r = 1;
#pragma clang loop unroll(disable)
  for (int i = 0; i < N; ++i) {
    idx[i] = 7 * i;
    perm[i] = i;
    uneven_idx[i] = 28 * (i / 4) + Steps[i % 4];
    p[i] = &pool[N - 1 - i];
  }
#pragma clang loop unroll(disable)
  for (int i = N - 1; i > 0; --i) {
    r = r * 1103515245u + 12345u;
    int j = (int)((r >> 8) % (unsigned)(i + 1)), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  long t = 0;
  for (int k = 0; k < 10; ++k)
    t += forward((const struct S56 *)a, N) + indirect(a, idx, N) + nodes(p, N) +
         shuffled(a, perm, N) + uneven(a, uneven_idx, N);
  sink = t;
  return 0;
}
