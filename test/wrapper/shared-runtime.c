// --activetime-shared-runtime links libactivetime_rt.so with an rpath
// instead of the archive, for executables and shared objects; the option
// itself never reaches clang.
//
// REQUIRES: shared-runtime
// RUN: %at_cc --activetime-shared-runtime %s -o %t.exe -### 2>&1 \
// RUN:   | FileCheck %s -DRT=%rt_shared --implicit-check-not=libactivetime_rt.a --implicit-check-not=activetime-shared-runtime
// RUN: %at_cxx -x c++ %s --activetime-shared-runtime -shared -fPIC -o %t.so -### 2>&1 \
// RUN:   | FileCheck %s -DRT=%rt_shared --implicit-check-not=libactivetime_rt.a --implicit-check-not=activetime-shared-runtime
// Compile-only: nothing to link.
// RUN: %at_cc --activetime-shared-runtime -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMPILE --implicit-check-not=libactivetime_rt --implicit-check-not=activetime-shared-runtime
// A shared runtime cannot go into a static executable.
// RUN: not %at_cc --activetime-shared-runtime -static %s -o %t.exe 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATIC

// CHECK:      {{/ld(\.[a-z]+)?"}}
// CHECK-SAME: .o" "[[RT]]" "-rpath" "{{[^"]*}}/lib"
// COMPILE:    "-fpass-plugin={{[^"]*}}/lib/ActiveTime.so"
// STATIC:     error: --activetime-shared-runtime cannot be used with -static

int main(void) { return 0; }
