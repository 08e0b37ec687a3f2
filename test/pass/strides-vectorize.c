// Memory probes go in after the loop optimizations and vectorizers: a loop
// with no dynamic site is vectorized exactly as without stride profiling,
// and a loop with one keeps its probe (an inline countdown and a call).
// RUN: %clang -O2 -g0 -fno-discard-value-names -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -S -emit-llvm %s -o %t.plain.ll
// RUN: %clang -O2 -g0 -fno-discard-value-names -fpass-plugin=%pass_plugin -fplugin=%pass_plugin -mllvm -activetime-strides -S -emit-llvm %s -o %t.strides.ll
// RUN: FileCheck %s < %t.strides.ll
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.ll
// The affine loop's vector body is the same in both builds.
// RUN: sed -n '/^define.*@affine(/,/^}/p' %t.plain.ll | grep -c '<4 x i32>' > %t.plain.n
// RUN: sed -n '/^define.*@affine(/,/^}/p' %t.strides.ll | grep -c '<4 x i32>' > %t.strides.n
// RUN: cmp %t.plain.n %t.strides.n

// CHECK-LABEL: define {{.*}} @affine(
// CHECK: vector.body:
// CHECK: load <4 x i32>
// CHECK-NOT: __activetime_mem_access
// CHECK: ret i32
int affine(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

// CHECK-LABEL: define {{.*}} @indirect(
// CHECK: @llvm.threadlocal.address.p0(ptr @__activetime_countdown)
// CHECK: call void @__activetime_mem_access(ptr @__activetime_module,
// CHECK: ret i32
int indirect(const int *a, const int *idx, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += a[idx[i]];
  return s;
}

// PLAIN-LABEL: define {{.*}} @affine(
// PLAIN: vector.body:
// PLAIN-NOT: __activetime_mem_access
// PLAIN-NOT: __activetime_countdown
