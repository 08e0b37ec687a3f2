// C++ with exceptions and debug info: the instrumented IR verifies and the
// backend compiles it at -O0 and -O2; unwinding paths get the exit probe.
// RUN: %clangxx -O2 -g -fpass-plugin=%pass_plugin -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %opt -passes=verify -disable-output %t.ll
// RUN: llc -O2 -filetype=obj %t.ll -o %t.o
// RUN: %clangxx -O2 -g -fpass-plugin=%pass_plugin -c %s -o %t2.o
// RUN: %clangxx -O0 -g -fpass-plugin=%pass_plugin -c %s -o %t3.o
// RUN: %clangxx -O2 -fno-exceptions -fpass-plugin=%pass_plugin -S -emit-llvm -DNO_EH %s -o - \
// RUN:   | FileCheck %s --check-prefix=NOEH
// In place (no timed copies): the exit probe on the unwinding path is
// conditional on the entry's count, like every other exit.
// RUN: %clangxx -O2 -g -fpass-plugin=%pass_plugin -Xclang -load -Xclang %pass_plugin \
// RUN:   -mllvm -activetime-clone-max-size=0 -S -emit-llvm %s -o %t.inplace.ll
// RUN: FileCheck %s --check-prefix=INPLACE < %t.inplace.ll
// RUN: %opt -passes=verify -disable-output %t.inplace.ll
// RUN: llc -O2 -filetype=obj %t.inplace.ll -o %t.inplace.o

#include <stdexcept>

#ifndef NO_EH
__attribute__((noinline)) int may_throw(int x) {
  if (x < 0)
    throw std::runtime_error("negative");
  return x;
}

// The function itself only counts: a counted call has no probe to run when
// unwinding, so its calls stay calls. Its timed copy (after all functions)
// has the invokes and the cleanup with the exit probe.
// CHECK-LABEL: define {{.*}} @_Z6callerii(
// CHECK:         musttail call {{.*}} @_Z6callerii.activetime.timed(
// CHECK-NOT:     invoke
// CHECK-NOT:     landingpad
// CHECK:       }
// CHECK-LABEL: define internal {{.*}} @_Z6callerii.activetime.timed(
// CHECK:         call void @__activetime_func_enter(
// CHECK:         invoke {{.*}} @_Z9may_throwi(
// CHECK-NEXT:            to label %{{.*}} unwind label %[[LPAD:.*]], !dbg
// CHECK:       {{^}}[[LPAD]]:
// CHECK-NEXT:    landingpad
// CHECK-NEXT:      cleanup
// CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
// CHECK-NEXT:    call void @__activetime_func_exit(
// CHECK-NEXT:    resume
//
// INPLACE-LABEL: define {{.*}} @_Z6callerii(
// INPLACE:         %[[TIMED:.*]] = icmp sge i64
// INPLACE:         call void @__activetime_func_enter(
// INPLACE:         invoke {{.*}} @_Z9may_throwi(
// INPLACE-NEXT:            to label %{{.*}} unwind label %[[LPAD:.*]], !dbg
// INPLACE:       {{^}}[[LPAD]]:
// INPLACE-NEXT:    landingpad
// INPLACE-NEXT:      cleanup
// INPLACE-NEXT:    br i1 %[[TIMED]], label %[[EXIT:[0-9]+]], label %[[RESUME:[0-9]+]]
// INPLACE:       {{^}}[[EXIT]]:
// INPLACE-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
// INPLACE-NEXT:    call void @__activetime_func_exit(
// INPLACE-NEXT:    br label %[[RESUME]]
// INPLACE:       {{^}}[[RESUME]]:
// INPLACE-NEXT:    resume
int caller(int a, int b) { return may_throw(a) + may_throw(b); }

int catcher(int a) {
  try {
    return caller(a, a);
  } catch (const std::exception &) {
    return -1;
  }
}
#else
int plain(int a);
// NOEH-LABEL: define {{.*}} @_Z4wrapi(
// NOEH-NOT:     invoke
// NOEH-NOT:     landingpad
// NOEH:       }
int wrap(int a) { return plain(a) + 1; }
#endif
