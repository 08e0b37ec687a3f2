// ACTIVETIME_OPTIONS: help lists every flag, an unknown flag is a clear error
// (and the program runs on, unprofiled), output= picks the file name (with
// %p/%e patterns or a directory).
// RUN: rm -rf %t && mkdir -p %t/out && cd %t
// RUN: %at_cc -O1 %s -o opts
// RUN: env ACTIVETIME_OPTIONS=help=1 ./opts 2>&1 | FileCheck --check-prefix=HELP %s
// RUN: mkdir %t/unknown && cd %t/unknown && env ACTIVETIME_OPTIONS=no_such_flag=1 ../opts 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// RUN: ls %t/unknown | count 0
// RUN: cd %t
// RUN: env ACTIVETIME_OPTIONS=output=%t/custom.%e.raw ./opts
// RUN: %activetime report %t/custom.opts.raw | FileCheck --check-prefix=REPORT %s
// RUN: env ACTIVETIME_OPTIONS=output=%t/out/ ./opts
// RUN: ls %t/out | FileCheck --check-prefix=DIR %s
// RUN: mkdir %t/none && cd %t/none && env ACTIVETIME_OPTIONS=write_profile=0 ../opts
// RUN: ls %t/none | count 0
// A directory that cannot be made (under a regular file): a warning at
// start-up, and the profile in the working directory.
// RUN: cd %t && rm -f activetime.opts.*.raw && touch afile
// RUN: env ACTIVETIME_OPTIONS=output=%t/afile/x.raw ./opts 2>&1 | FileCheck --check-prefix=FAIL %s
// RUN: %activetime report activetime.opts.*.raw | FileCheck --check-prefix=REPORT %s
#include <stdio.h>

__attribute__((noinline)) int f(int x) { return x * 3; }
int main(void) {
  printf("%d\n", f(14));
  return 0;
}

// HELP-DAG: output
// HELP-DAG: verbosity
// HELP-DAG: initial_stack_frames
// HELP-DAG: write_profile
// UNKNOWN: no_such_flag{{.*}}; the program runs without profiling
// REPORT: {{^ +}}1 {{.*}} f{{ *$}}
// DIR: {{^}}activetime.opts.{{[0-9]+}}.raw{{$}}
// FAIL: ActiveTime: WARNING: output='{{.*}}/afile/x.raw': cannot create directory '{{.*}}/afile' (Not a directory); the profile will be written to 'activetime.opts.{{[0-9]+}}.raw' instead
