// Stride profiling of unrolled loops: the probes see the optimized code, so
// a loop unrolled 4 times has 4 sites for one source access, each with 4
// times its stride. The pass proves they are copies (one loop, one location,
// addresses differing by constants) and report --strides folds them back:
// one row with the source stride (56, -48) and x4; --per-copy shows the
// sites (224, -192); the prefetch hints stay per instruction.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g -mllvm -activetime-strides %s -o unroll
// RUN: env ACTIVETIME_OPTIONS=output=u.raw:stride_skip=0 ./unroll
// RUN: %activetime report --strides u.raw | FileCheck %s
// RUN: %activetime report --strides --per-copy u.raw | FileCheck %s --check-prefix=COPY
// RUN: %activetime export --format=prefetch --min-span=0 -o hints.json u.raw
// RUN: python3 -c "import json,sys; [print('hint', h['function'], h['line'], h['stride']) for h in json.load(open(sys.argv[1]))['hints']]" hints.json | FileCheck %s --check-prefix=HINTS

// CHECK: Unrolled copies: 3 source accesses folded into one row each
#include <stdlib.h>

#define N 4096
#define NOINLINE __attribute__((noinline))
struct S56 { long a, b, c, d, e, f, g; }; // 56 bytes
struct S48 { long a, b, c, d, e, f; };    // 48 bytes
volatile int calls;

// The unrolled loop's 4 copies (static: SCEV knows the step) and the
// remainder loop's one.
// CHECK-DAG: strides-unroll.c:[[#@LINE+9]]:{{[0-9]+}} forward load 8 56 7 constant - - - - - static x4
// CHECK-DAG: strides-unroll.c:[[#@LINE+8]]:{{[0-9]+}} forward load 8 56 7 constant - - - - - static -
// COPY-DAG: strides-unroll.c:[[#@LINE+7]]:{{[0-9]+}} forward load 8 224 28 constant - - - - - static #[[#FWD:]]+0
// COPY-DAG: strides-unroll.c:[[#@LINE+6]]:{{[0-9]+}} forward load 8 224 28 constant - - - - - static #[[#FWD]]+56
// COPY-DAG: strides-unroll.c:[[#@LINE+5]]:{{[0-9]+}} forward load 8 224 28 constant - - - - - static #[[#FWD]]+112
// COPY-DAG: strides-unroll.c:[[#@LINE+4]]:{{[0-9]+}} forward load 8 224 28 constant - - - - - static #[[#FWD]]+168
NOINLINE long forward(struct S56 *s, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i) t += s[i].c;
  return t;
}

// Backwards over 48-byte elements.
// CHECK-DAG: strides-unroll.c:[[#@LINE+8]]:{{[0-9]+}} backward load 8 -48 -6 constant - - - - - static x4
// COPY-DAG: strides-unroll.c:[[#@LINE+7]]:{{[0-9]+}} backward load 8 -192 -24 constant - - - - - static #[[#BWD:]]+0
// COPY-DAG: strides-unroll.c:[[#@LINE+6]]:{{[0-9]+}} backward load 8 -192 -24 constant - - - - - static #[[#BWD]]-48
// COPY-DAG: strides-unroll.c:[[#@LINE+5]]:{{[0-9]+}} backward load 8 -192 -24 constant - - - - - static #[[#BWD]]-96
// COPY-DAG: strides-unroll.c:[[#@LINE+4]]:{{[0-9]+}} backward load 8 -192 -24 constant - - - - - static #[[#BWD]]-144
NOINLINE long backward(struct S48 *s, int n) {
  calls++; long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = n - 1; i >= 0; --i) t += s[i].d;
  return t;
}

// Rows of 4 elements through a pointer loaded per row (SCEV cannot see the
// step: dynamic sites); the inner loop fully unrolled: 4 copies at r+0, +56,
// +112, +168 whose measured stride is 224 (rows are contiguous): folded into
// 56 x4. The prefetch hints stay one per copy, with the copy's stride.
// CHECK-DAG: strides-unroll.c:[[#@LINE+13]]:{{[0-9]+}} rows_kernel load 8 56 7 constant {{[0-9.]+}}% {{[0-9]+}} {{[0-9]+}} - {{.*}} dynamic x4
// COPY-DAG: strides-unroll.c:[[#@LINE+12]]:{{[0-9]+}} rows_kernel load 8 224 28 constant {{[0-9.]+}}% {{.*}} 224 {{.*}} dynamic #[[#ROWS:]]+0
// COPY-DAG: strides-unroll.c:[[#@LINE+11]]:{{[0-9]+}} rows_kernel load 8 224 28 constant {{[0-9.]+}}% {{.*}} 224 {{.*}} dynamic #[[#ROWS]]+168
// HINTS: hint rows_kernel [[#@LINE+10]] 224
// HINTS-NEXT: hint rows_kernel [[#@LINE+9]] 224
// HINTS-NEXT: hint rows_kernel [[#@LINE+8]] 224
// HINTS-NEXT: hint rows_kernel [[#@LINE+7]] 224
// HINTS-NOT: hint
NOINLINE long rows_kernel(struct S56 **rows, int m) {
  calls++; long t = 0;
#pragma clang loop unroll(disable)
  for (int j = 0; j < m; ++j) {
    struct S56 *r = rows[j];
    for (int i = 0; i < 4; ++i) t += r[i].c;
  }
  return t;
}
// CHECK-NOT: note:
// COPY-NOT: x4

int main(void) {
  struct S56 *a = calloc(N, sizeof *a);
  struct S48 *b = calloc(N, sizeof *b);
  struct S56 **rows = malloc(N / 4 * sizeof *rows);
#pragma clang loop unroll(disable)
  for (int j = 0; j < N / 4; ++j)
    rows[j] = a + 4 * j;
  long t = 0;
  for (int r = 0; r < 10; ++r)
    t += forward(a, N) + backward(b, N) + rows_kernel(rows, N / 4);
  return (int)(t & 1);
}
