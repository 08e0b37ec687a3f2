// The plugin's annotation sits next to the user's own annotate attributes;
// it neither replaces them nor adds ours where only theirs is present.
//
// RUN: %clang -fplugin=%clang_plugin -S -emit-llvm -O1 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s

// CHECK:      ANNOTATION @both activetime.no_instrument
// CHECK-NEXT: ANNOTATION @both user.tag
// CHECK-NEXT: ANNOTATION @only_user user.tag
// CHECK-NOT:  ANNOTATION

__attribute__((annotate("user.tag"), no_instrument_function)) int both(int x) {
  return x + 1;
}
__attribute__((annotate("user.tag"))) int only_user(int x) { return x + 2; }
int neither(int x) { return x + 3; }
