// Commands that link get the static runtime after the user's inputs, with
// what it needs from libc's neighbours, and export its entry points.
//
// RUN: %at_cc %s -o %t.exe -### 2>&1 | FileCheck %s -DRT=%rt_static --check-prefixes=CHECK,CC1
// The runtime is not compiled as C++ after -x c++ (the wrapper resets -x).
// RUN: %at_cxx -x c++ %s -o %t.exe -### 2>&1 | FileCheck %s -DRT=%rt_static --check-prefixes=CHECK,CC1,CXX
// -v with inputs still links.
// RUN: %at_cc -v %s -o %t.exe -### 2>&1 | FileCheck %s -DRT=%rt_static --check-prefixes=CHECK,CC1
// -MD is a side effect of compiling; the command still links.
// RUN: %at_cc -MD %s -o %t.exe -### 2>&1 | FileCheck %s -DRT=%rt_static --check-prefixes=CHECK,CC1
// Linking objects only (the usual last step of a build).
// RUN: touch %t.o
// RUN: %at_cc %t.o -o %t.exe -### 2>&1 | FileCheck %s -DRT=%rt_static
// Option values that look like inputs are not inputs, and the objects of a
// response file are (CMake passes long link lines that way).
// RUN: echo '"%t.o" -o "%t.exe"' > %t.rsp
// RUN: %at_cc -L %t.dir -o %t.exe @%t.rsp -### 2>&1 | FileCheck %s -DRT=%rt_static

// CC1:        "-cc1"
// CC1-SAME:   "-load" "{{[^"]*}}/lib/ActiveTimeClang.so"
// CC1-SAME:   "-fpass-plugin={{[^"]*}}/lib/ActiveTime.so"
// CHECK:      {{/ld(\.[a-z]+)?"}}
// CHECK-SAME: .o" "[[RT]]" "--export-dynamic-symbol=__activetime_*" "--export-dynamic-symbol=ompt_start_tool" "-lpthread" "-ldl"
// CXX-SAME:   "-lstdc++"
// CHECK-NOT:  libactivetime_rt.so

int main(void) { return 0; }
