// Plugin + pass in one command line: each attribute and pragma changes the
// instrumentation as documented (docs/instrumenting.md, "Source annotations").
//
// RUN: %clang -fplugin=%clang_plugin -fpass-plugin=%pass_plugin \
// RUN:   -Xclang -load -Xclang %pass_plugin -mllvm -activetime-min-size=50 \
// RUN:   -mllvm -activetime-print-decisions \
// RUN:   -std=c2x -O1 -S -emit-llvm -o %t.ll %s 2> %t.decisions
// RUN: FileCheck %s --check-prefix=DEC < %t.decisions
// RUN: FileCheck %s < %t.ll
//
// Without the plugin the attributes are unknown and change nothing.
// RUN: %clang -fpass-plugin=%pass_plugin -Xclang -load -Xclang %pass_plugin \
// RUN:   -mllvm -activetime-print-decisions -Wno-unknown-attributes \
// RUN:   -Wno-unknown-pragmas -std=c2x -O1 -S -emit-llvm -o /dev/null %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPLUGIN

// DEC-DAG: activetime: skip out: activetime.no_instrument annotation
// DEC-DAG: activetime: instrument forced{{$}}
// DEC-DAG: activetime: skip tiny: tiny leaf below -activetime-min-size
// DEC-DAG: activetime: instrument region_fn as region 'decode frame'{{$}}
// DEC-DAG: activetime: instrument strided with strides{{$}}
// DEC-DAG: activetime: instrument unstrided{{$}}
// DEC-DAG: activetime: skip in_off_range: activetime.no_instrument annotation
// DEC-DAG: activetime: instrument in_strides_range with strides{{$}}
// DEC-DAG: activetime: instrument main{{$}}
// DEC: activetime: 4 memory sites

// NOPLUGIN-DAG: activetime: instrument out{{$}}
// NOPLUGIN-DAG: activetime: instrument region_fn{{$}}
// NOPLUGIN-DAG: activetime: instrument in_off_range{{$}}
// NOPLUGIN-NOT: memory sites

// The region is reported under its name, as a process-wide (non-local)
// function even though it is static; the annotations are gone.
// CHECK-NOT: llvm.global.annotations
// CHECK-DAG: @[[RNAME:__activetime_name[.0-9]*]] = private unnamed_addr constant [13 x i8] c"decode frame\00"
// CHECK-DAG: { ptr @region_fn, ptr @[[RNAME]], ptr null, i32 0, i32 0 }
// Memory probes only in the two functions asking for them.
// CHECK-DAG: @__activetime_sites = internal constant [4 x
// CHECK-LABEL: define {{.*}} @strided(
// CHECK: call void @__activetime_mem_access(
// CHECK-LABEL: define {{.*}} @unstrided(
// CHECK: musttail call {{.*}} @unstrided.activetime.timed(
// CHECK-NOT: call void @__activetime_mem_access(
// CHECK-LABEL: define {{.*}} @in_off_range(
// CHECK-NOT: call void @__activetime_
// CHECK-NOT: @in_off_range.activetime.timed
// CHECK-LABEL: define {{.*}} @in_strides_range(
// CHECK: call void @__activetime_mem_access(
// The timed copies have the probes, and the memory probes of their function.
// CHECK-LABEL: define internal {{.*}} @strided.activetime.timed(
// CHECK: call void @__activetime_func_enter(
// CHECK: call void @__activetime_mem_access(
// CHECK-LABEL: define internal {{.*}} @unstrided.activetime.timed(
// CHECK: call void @__activetime_func_enter(
// CHECK-NOT: call void @__activetime_mem_access(
// CHECK: call void @__activetime_func_exit(
// CHECK-NOT: call void @__activetime_mem_access(
// CHECK-NOT: @in_off_range.activetime.timed
// CHECK-LABEL: define internal {{.*}} @in_strides_range.activetime.timed(
// CHECK: call void @__activetime_mem_access(

#define NOINLINE __attribute__((noinline))

[[activetime::no_instrument]] NOINLINE int out(int x) { return x + 1; }
// Tiny leaves are below -activetime-min-size=50; the attribute forces one in.
[[activetime::instrument]] NOINLINE int forced(int x) { return x + 2; }
NOINLINE int tiny(int x) { return x + 3; }
__attribute__((activetime_region("decode frame"))) NOINLINE static int
region_fn(int x) {
  return x + 4;
}
[[activetime::strides]] NOINLINE int strided(int *p, int *idx, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[idx[i]];
  return s;
}
// Instrumented, but no memory probes: strides are globally off.
[[activetime::instrument]] NOINLINE int unstrided(int *p, int *idx, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[idx[i]];
  return s;
}
#pragma activetime instrument(off)
NOINLINE int in_off_range(int x) { return out(x) + forced(x); }
#pragma activetime instrument(on)
#pragma activetime strides(on)
NOINLINE int in_strides_range(int *p, int *idx, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[idx[i]];
  return s;
}
#pragma activetime strides(off)

int main(int argc, char **argv) {
  int a[4] = {1, 2, 3, 0}, idx[4] = {3, 2, 1, 0};
  (void)argv;
  return out(argc) + forced(argc) + tiny(argc) + region_fn(argc) +
         strided(a, idx, 4) + unstrided(a, idx, 4) + in_off_range(argc) +
         in_strides_range(a, idx, argc);
}
