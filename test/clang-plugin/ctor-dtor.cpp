// Constructors and destructors: every variant clang emits (complete, base,
// deleting) carries the annotation.
//
// RUN: %clangxx -fplugin=%clang_plugin -S -emit-llvm -O0 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s
// RUN: %clangxx -fplugin=%clang_plugin -S -emit-llvm -O2 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s

// CHECK:      ANNOTATION @_ZN1KC1Ei activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN1KD0Ev activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN1KD1Ev activetime.no_instrument
// CHECK-NEXT: ANNOTATION @_ZN1KD2Ev activetime.no_instrument
// CHECK-NOT:  ANNOTATION

struct Base {
  int B;
};

// The virtual base keeps the complete-object constructor separate from the
// base-object one.
struct K : virtual Base {
  __attribute__((no_instrument_function)) K(int X) : V(X) {}
  __attribute__((no_instrument_function)) virtual ~K() { V = 0; }
  int get() { return V; }
  int V;
};

int use(int X) {
  K *P = new K(X);
  int R = P->get();
  delete P;
  return R;
}
