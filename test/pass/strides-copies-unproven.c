// Unrolled copies the pass cannot prove: a[idx[i]] and p[i]->v unrolled 4
// times are 4 dynamic sites at one location whose addresses differ by loaded
// values. They form an unproven copy group: flag 8 (MS_CopyUnproven) with 4
// (in a loop) = 12, the group's first site's index + 1 as for proven groups,
// copy offset 0, and each copy's previous copy in instruction order
// (its index + 1; 0 for the first), which the runtime measures the offset
// from. The proven groups of the same loops (idx[i], p[i]) are unchanged:
// flags 6, previous copy 0, their offsets. Site table: { ..., static
// stride, size, flags, loop line, loop depth, copy group, previous copy,
// copy offset }.
// RUN: %clang -fpass-plugin=%pass_plugin -Xclang -load -Xclang %pass_plugin \
// RUN:   -mllvm -activetime-strides -O2 -g -S -emit-llvm -o %t.ll %s
// RUN: FileCheck %s < %t.ll

struct Node { long pad[2], v, more[3]; };

// The remainder loop's idx[i] and a[idx[i]] (no group), then the unrolled
// loop's: idx[i] proven (group 3, offsets 0, 4, 8, 12), a[idx[i]] unproven
// (group 4: sites[3]; previous copies sites[3], [5], [7]: 4, 6, 8).
// CHECK: @__activetime_sites = internal constant [24 x { ptr, ptr, i32, i32, i64, i64, i32, i32, i32, i32, i32, i32, i64, i64, i32 }]
// CHECK-SAME: i32 [[#IND:@LINE+26]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 4, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 16, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 3, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 4, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 16, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 3, i32 0, i64 4, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 4, i32 4, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 16, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 3, i32 0, i64 8, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 4, i32 6, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 16, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 3, i32 0, i64 12, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 4, i32 8, i64 0, i64 0, i32 0 }
// p[i]->v likewise: p[i] proven (group 13), p[i]->v unproven (group 14:
// sites[13]; previous copies 14, 16, 18).
// CHECK-SAME: i32 [[#PTR:@LINE+22]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 8, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 32, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 13, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 14, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 32, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 13, i32 0, i64 8, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 14, i32 14, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 32, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 13, i32 0, i64 16, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 14, i32 16, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 32, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 13, i32 0, i64 24, i64 0, i32 0 }
// CHECK-SAME: i32 [[#PTR]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 14, i32 18, i64 0, i64 0, i32 0 }
__attribute__((noinline)) long indirect(const long *a, const int *idx, int n) {
  long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i)
    t += a[idx[i]];
  return t;
}

__attribute__((noinline)) long nodes(struct Node *const *p, int n) {
  long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i)
    t += p[i]->v;
  return t;
}

// Two inlined calls of one function in one loop share the callee's
// locations but are two accesses, not copies: no group, proven or not.
// CHECK-SAME: i32 [[#AT:@LINE+5]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 4, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#AT]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#AT]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 4, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#AT]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }]
static inline long at(const long *a, const int *idx, int i) {
  return a[idx[i]];
}

__attribute__((noinline)) long two_calls(const long *a, const int *x,
                                         const long *b, const int *y, int n) {
  long t = 0;
#pragma clang loop unroll(disable)
  for (int i = 0; i < n; ++i)
    t += at(a, x, i) * at(b, y, i);
  return t;
}
