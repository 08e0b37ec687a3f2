// The plugin turns no_instrument_function into an annotation the pass can
// see; functions without the attribute get none.
//
// RUN: %clang -fplugin=%clang_plugin -S -emit-llvm -O0 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s
// RUN: %clang -fplugin=%clang_plugin -S -emit-llvm -O2 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s
//
// Without the plugin the attribute leaves nothing in IR for the pass.
// RUN: %clang -S -emit-llvm -O0 -o - %s \
// RUN:   | python3 %S/Inputs/annotations.py | FileCheck %s --check-prefix=NOPLUGIN

// CHECK:      ANNOTATION @attr_on_decl activetime.no_instrument
// CHECK-NEXT: ANNOTATION @gnu_spelling activetime.no_instrument
// CHECK-NEXT: ANNOTATION @skipped activetime.no_instrument
// CHECK-NEXT: ANNOTATION @static_helper activetime.no_instrument
// CHECK-NOT:  ANNOTATION
// NOPLUGIN:   NO ANNOTATIONS

__attribute__((no_instrument_function)) int skipped(int x) { return x + 1; }

int counted(int x) { return x * 2; }

// The attribute on an earlier declaration is inherited by the definition.
__attribute__((no_instrument_function)) int attr_on_decl(int x);
int attr_on_decl(int x) { return x - 5; }

[[gnu::no_instrument_function]] int gnu_spelling(int x) { return x ^ 3; }

__attribute__((no_instrument_function, noinline)) static int
static_helper(int x) {
  return x * x;
}

int main(int argc, char **argv) {
  (void)argv;
  return skipped(argc) + counted(argc) + attr_on_decl(argc) +
         gnu_spelling(argc) + static_helper(argc);
}
