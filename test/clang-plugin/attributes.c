// Each ActiveTime attribute and pragma is lowered to the annotation the pass
// reads (see clang-plugin/ActiveTimeClang.cpp for the table).
//
// RUN: %clang -fplugin=%clang_plugin -std=c2x -S -emit-llvm -O0 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s
// RUN: %clang -fplugin=%clang_plugin -std=c2x -S -emit-llvm -O2 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s

// CHECK:      ANNOTATION @forced activetime.instrument
// CHECK-NEXT: ANNOTATION @forced_in_off_range activetime.instrument
// CHECK-NEXT: ANNOTATION @gnu_region activetime.region:decode frame
// CHECK-NEXT: ANNOTATION @in_off_range activetime.no_instrument
// CHECK-NEXT: ANNOTATION @in_strides_range activetime.strides
// CHECK-NEXT: ANNOTATION @out activetime.no_instrument
// CHECK-NEXT: ANNOTATION @region_on_decl activetime.region:parse
// CHECK-NEXT: ANNOTATION @strided activetime.strides
// CHECK-NOT:  ANNOTATION

[[activetime::no_instrument]] int out(int x) { return x + 1; }
[[activetime::instrument]] int forced(int x) { return x + 2; }
__attribute__((activetime_region("decode frame"))) int gnu_region(int x) {
  return x + 3;
}
[[activetime::region("parse")]] int region_on_decl(int x);
int region_on_decl(int x) { return x + 4; }
[[activetime::strides]] int strided(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}
int plain(int x) { return x + 5; }

#pragma activetime instrument(off)
int in_off_range(int x) { return x + 6; }
// An explicit attribute wins over the range.
[[activetime::instrument]] int forced_in_off_range(int x) { return x + 7; }
#pragma activetime instrument(on)
int after_off_range(int x) { return x + 8; }

#pragma activetime strides(on)
int in_strides_range(int *p) { return p[0]; }
#pragma activetime strides(off)
int after_strides_range(int *p) { return p[1]; }

int main(void) {
  int a[4] = {1, 2, 3, 4};
  return out(1) + forced(2) + gnu_region(3) + region_on_decl(4) +
         strided(a, 4) + plain(5) + in_off_range(6) + forced_in_off_range(7) +
         after_off_range(8) + in_strides_range(a) + after_strides_range(a);
}
