// The census through clang: at -O2 the static helper is inlined into its
// caller and has no definition left when the pass instruments the module,
// so it is listed (name, file, line from its DISubprogram) in
// !activetime.inlined_away; at -O0 nothing is inlined and nothing listed.
// With -activetime-before-inlining (through the driver wrapper, which loads
// the plugin for -mllvm) it keeps its probes inside its caller instead.
// RUN: %clang -O2 -g -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O2
// RUN: %clang -O0 -g -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %at_cc -O2 -g -mllvm -activetime-before-inlining -S -emit-llvm %s -o - | FileCheck %s --check-prefix=BEFORE

// O2: !activetime.inlined_away = !{![[E:[0-9]+]]}
// O2: ![[E]] = !{!"square", !"{{.*}}clang-census.c", i32 [[@LINE+4]], i1 true}
// O0-NOT: !activetime.inlined_away
// BEFORE: @__activetime_funcs = internal constant [3 x
// BEFORE-NOT: !activetime.inlined_away
static int square(int x) { return x * x; }

__attribute__((noinline)) int sum_squares(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += square(i);
  return s;
}

int main(void) { return sum_squares(10) == 285 ? 0 : 1; }
