// Unrolled copies of one source access: the pass proves with ScalarEvolution
// that the sites of one loop at one location whose addresses differ by
// constants are copies of one access, and gives them a copy group (the
// group's first site's index + 1) and their byte offset from that site in
// the site table { ..., loop line, loop depth, copy group, previous copy,
// copy offset }; dynamic sites whose addresses differ by non-constants form
// an unproven group (flag 8), each naming its previous copy (index + 1):
// test/pass/strides-copies-unproven.c.
// RUN: %clang -fpass-plugin=%pass_plugin -Xclang -load -Xclang %pass_plugin \
// RUN:   -mllvm -activetime-strides -O2 -g -S -emit-llvm -o %t.ll %s
// RUN: FileCheck %s < %t.ll

struct S56 { long a, b, c, d, e, f, g; }; // 56 bytes
struct S48 { long a, b, c, d, e, f; };    // 48 bytes

// The remainder loop's copy (stride 56, no group), then the 4 copies of the
// unrolled loop: stride 224, group 2 (sites[1]), offsets 0, 56, 112, 168.
// CHECK: @__activetime_sites = internal constant [14 x { ptr, ptr, i32, i32, i64, i64, i32, i32, i32, i32, i32, i32, i64, i64, i32 }]
// CHECK-SAME: i32 [[#FWD:@LINE+9]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 56, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#FWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 224, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 2, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#FWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 224, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 2, i32 0, i64 56, i64 0, i32 0 }
// CHECK-SAME: i32 [[#FWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 224, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 2, i32 0, i64 112, i64 0, i32 0 }
// CHECK-SAME: i32 [[#FWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 224, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 2, i32 0, i64 168, i64 0, i32 0 }
__attribute__((noinline)) long forward(struct S56 *s, int n) {
  long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = 0; i < n; ++i)
    t += s[i].c;
  return t;
}

// Backwards, 48-byte steps: stride -192, offsets 0, -48, -96, -144 (group 7).
// CHECK-SAME: i32 [[#BWD:@LINE+9]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 -48, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#BWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 -192, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 7, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#BWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 -192, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 7, i32 0, i64 -48, i64 0, i32 0 }
// CHECK-SAME: i32 [[#BWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 -192, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 7, i32 0, i64 -96, i64 0, i32 0 }
// CHECK-SAME: i32 [[#BWD]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 -192, i32 8, i32 6, i32 {{[0-9]+}}, i32 1, i32 7, i32 0, i64 -144, i64 0, i32 0 }
__attribute__((noinline)) long backward(struct S48 *s, int n) {
  long t = 0;
#pragma clang loop unroll_count(4)
  for (int i = n - 1; i >= 0; --i)
    t += s[i].d;
  return t;
}

// a[idx[i]] unrolled twice: the two idx[i] copies are a group; the two
// dynamic a[idx[i]] copies differ by a[idx[i+1]] - a[idx[i]], no constant:
// an unproven group (12: sites[11]), flags 4 | 8, the second naming the
// first (sites[11]: 12) as its previous copy.
// CHECK-SAME: i32 [[#IND:@LINE+8]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 8, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 11, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 12, i32 0, i64 0, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 8, i32 4, i32 6, i32 {{[0-9]+}}, i32 1, i32 11, i32 0, i64 4, i64 0, i32 0 }
// CHECK-SAME: i32 [[#IND]], i32 {{[0-9]+}}, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 12, i32 {{[0-9]+}}, i32 1, i32 12, i32 12, i64 0, i64 0, i32 0 }]
__attribute__((noinline)) long indirect(long *a, int *idx, int n) {
  long s = 0;
#pragma clang loop unroll_count(2)
  for (int i = 0; i < n; ++i)
    s += a[idx[i]];
  return s;
}
