// A tool named in OMP_TOOL_LIBRARIES still runs next to ActiveTime's own OMPT
// tool (both see every region); chain-shared.c runs this file with the
// shared runtime.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -O1 -shared -fPIC %S/Inputs/client-tool.c -o client.so
// RUN: %at_cc -O1 -g -fopenmp %s -o chain
// RUN: env OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=%t/client.so ./chain | FileCheck %s --check-prefix=CLIENT
// RUN: %activetime report --parallel activetime.chain.*.raw | FileCheck %s
// CLIENT: client tool: 3 parallel regions
// CHECK: region chain.c:[[@LINE+9]] (main)
// CHECK-NEXT: instances 3, workers 2, threads 2
#include <stdio.h>

volatile long sink;

int main(void) {
  for (int r = 0; r < 3; ++r) {
    __asm__ volatile("" ::: "memory");
#pragma omp parallel for
    for (int i = 0; i < 1000; ++i)
      sink += i;
  }
  return 0;
}
