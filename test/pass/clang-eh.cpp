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

#include <stdexcept>

#ifndef NO_EH
__attribute__((noinline)) int may_throw(int x) {
  if (x < 0)
    throw std::runtime_error("negative");
  return x;
}

// CHECK-LABEL: define {{.*}} @_Z6callerii(
// CHECK:         call void @__activetime_func_enter(
// CHECK:         invoke {{.*}} @_Z9may_throwi(
// CHECK-NEXT:            to label %{{.*}} unwind label %[[LPAD:.*]], !dbg
// CHECK:       [[LPAD]]:
// CHECK-NEXT:    landingpad
// CHECK:         call void @__activetime_func_exit(
// CHECK:         resume
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
