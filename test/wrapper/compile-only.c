// Commands that stop before linking load the pass and the front-end plugin
// and get no runtime (which would be a stray input, or worse, turn the
// command into a link).
//
// RUN: %at_cc -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// RUN: %at_cxx -c -x c++ %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// RUN: %at_cc -S %s -o %t.s -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// RUN: %at_cc -E %s -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// RUN: %at_cc -fsyntax-only %s -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// RUN: %at_cc -MM %s -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// RUN: %at_cc -M -MF %t.d %s -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// -MD writes dependencies as a side effect of a compile; with -c no link.
// RUN: %at_cc -MD -MF %t.d -c %s -o %t.o -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// A header on its own builds a precompiled header.
// RUN: %at_cxx -x c++-header %s -o %t.pch -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'
// -c inside a response file counts too.
// RUN: echo '-c "%s" -o "%t.o"' > %t.rsp
// RUN: %at_cc @%t.rsp -### 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=libactivetime_rt --implicit-check-not='{{/ld(\.[a-z]+)?"}}'

// CHECK:      "-cc1"
// CHECK-SAME: "-load" "{{[^"]*}}/lib/ActiveTimeClang.so"
// CHECK-SAME: "-fpass-plugin={{[^"]*}}/lib/ActiveTime.so"

int main(void) { return 0; }
