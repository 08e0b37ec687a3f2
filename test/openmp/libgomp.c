// With libgomp (no OMPT) the report says the analysis was unavailable
// instead of printing nothing or zeros.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 -g -fopenmp=libgomp %s -o gomp
// RUN: env OMP_NUM_THREADS=2 ./gomp
// RUN: %activetime report --parallel activetime.gomp.*.raw | FileCheck %s
// CHECK: process {{[0-9]+}}: parallel analysis unavailable: the OpenMP runtime (libgomp) has no OMPT interface
// CHECK-NOT: region
// Without OpenMP at all:
// RUN: %at_cc -O1 -g %s -o serial
// RUN: ./serial
// RUN: %activetime report --parallel activetime.serial.*.raw | FileCheck %s --check-prefix=SERIAL
// SERIAL: process {{[0-9]+}}: no OpenMP runtime was seen in this process
// Disabled by option (libomp):
// RUN: %at_cc -O1 -g -fopenmp %s -o off
// RUN: env ACTIVETIME_OPTIONS=openmp=0 OMP_NUM_THREADS=2 ./off
// RUN: %activetime report --parallel activetime.off.*.raw | FileCheck %s --check-prefix=OFF
// OFF: process {{[0-9]+}}: parallel analysis disabled (ACTIVETIME_OPTIONS=openmp=0)
#include <stdio.h>

volatile long sink;

int main(void) {
#pragma omp parallel for
  for (int i = 0; i < 1000; ++i)
    sink += i;
  return 0;
}
