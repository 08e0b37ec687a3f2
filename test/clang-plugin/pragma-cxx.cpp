// #pragma activetime instrument(off) covers what is written between the
// pragmas in translation-unit order: member functions defined in a class,
// templates (and so their instantiations), lambdas.
//
// RUN: %clangxx -fplugin=%clang_plugin -std=c++17 -S -emit-llvm -O0 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s

// CHECK:      ANNOTATION @"_ZZ3usevENK3$_0clEv" activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_Z3twiIiET_S0_ activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN1S3getEv activetime.no_instrument
// CHECK-NOT:  ANNOTATION

#pragma activetime instrument(off)
struct S {
  int v;
  int get() { return v; }
};
template <typename T> T twi(T x) { return x * 2; }
#pragma activetime instrument(on)

int use() {
  S s{3};
#pragma activetime instrument(off)
  auto l = [] { return 4; };
#pragma activetime instrument(on)
  auto m = [] { return 5; };
  return s.get() + twi(1) + l() + m();
}
