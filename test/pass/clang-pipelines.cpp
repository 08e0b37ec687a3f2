// Through clang -fpass-plugin the pass runs once at every optimization level
// and in the -flto (full and thin) pre-link compile, after inlining.
// RUN: %clangxx -O0 -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clangxx -O1 -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: %clangxx -O2 -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: %clangxx -O3 -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: %clangxx -Os -fpass-plugin=%pass_plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: %clangxx -O2 -flto -fpass-plugin=%pass_plugin -c %s -o %t.full.bc
// RUN: llvm-dis %t.full.bc -o - | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: %clangxx -O0 -flto -fpass-plugin=%pass_plugin -c %s -o %t.full0.bc
// RUN: llvm-dis %t.full0.bc -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clangxx -O2 -flto=thin -fpass-plugin=%pass_plugin -c %s -o %t.thin.bc
// RUN: llvm-dis %t.thin.bc -o - | FileCheck %s --check-prefixes=CHECK,OPT

// One table and one constructor per module.
// O0:  @__activetime_funcs = internal constant [3 x
// OPT: @__activetime_funcs = internal constant [2 x
// CHECK-NOT: @__activetime_funcs.
// OPT-NOT: _ZL6squarei
// CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @activetime.module_ctor, ptr null }]

// Inlined at -O1 and above, so only the -O0 build keeps (and probes) it.
static int square(int x) { return x * x; }

__attribute__((noinline)) int sum_squares(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += square(i);
  return s;
}
// The function itself only counts (the thread's counter through the
// module's TLS pointer) and jumps to its timed copy when the call is timed.
// CHECK-LABEL: define {{.*}}i32 @_Z11sum_squaresi(
// CHECK:         call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
// CHECK:         icmp sge i64
// CHECK:         musttail call {{.*}}i32 @_Z11sum_squaresi.activetime.timed(
// CHECK-NOT:     call void @__activetime_func_
// O0:            call {{.*}}@_ZL6squarei(
// OPT-NOT:       call {{.*}}@_ZL6squarei(
// CHECK-NOT:     call void @__activetime_func_
// CHECK:       }

// Emitted after its caller at -O0.
// O0-LABEL: define internal noundef i32 @_ZL6squarei(
// O0:         musttail call {{.*}}i32 @_ZL6squarei.activetime.timed(
// O0-NOT:     call void @__activetime_func_
// O0:       }
// OPT-NOT:  define {{.*}}@_ZL6squarei(

int main(int argc, char **argv) { return sum_squares(argc); }
// CHECK-LABEL: define {{.*}}i32 @main(
// CHECK:         musttail call {{.*}}i32 @main.activetime.timed(
// CHECK-NOT:     call void @__activetime_func_
// CHECK:       }

// The timed copies, after the functions: one entry probe and an exit
// probe on every way out.
// CHECK-LABEL: define internal {{.*}}i32 @_Z11sum_squaresi.activetime.timed(
// CHECK:         call void @__activetime_func_enter(
// CHECK-NOT:     call void @__activetime_func_enter(
// O0:            call {{.*}}@_ZL6squarei(
// OPT-NOT:       call {{.*}}@_ZL6squarei(
// CHECK:         call void @__activetime_func_exit(
// CHECK-NOT:     call void @__activetime_func_exit(
// CHECK:       }
// O0-LABEL: define internal noundef i32 @_ZL6squarei.activetime.timed(
// O0:         call void @__activetime_func_enter(
// O0-NOT:     call void @__activetime_func_enter(
// O0:         call void @__activetime_func_exit(
// O0-NOT:     call void @__activetime_func_exit(
// O0:       }
// OPT-NOT:  define {{.*}}@_ZL6squarei
// CHECK-LABEL: define internal {{.*}}i32 @main.activetime.timed(
// CHECK:         call void @__activetime_func_enter(
// CHECK-NOT:     call void @__activetime_func_enter(
// CHECK:         call void @__activetime_func_exit(
// CHECK:       }

// CHECK: !{i32 7, !"activetime.instrumented", i32 1}
