// chain.c with the shared runtime: a tool named in OMP_TOOL_LIBRARIES still
// runs next to ActiveTime's own OMPT tool. The program and the checks are
// chain.c's.
// REQUIRES: shared-runtime
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -O1 -shared -fPIC %S/Inputs/client-tool.c -o client.so
// RUN: %at_cc --activetime-shared-runtime -O1 -g -fopenmp %S/chain.c -o chain
// RUN: env OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES=%t/client.so ./chain | FileCheck %S/chain.c --check-prefix=CLIENT
// RUN: %activetime report --parallel activetime.chain.*.raw | FileCheck %S/chain.c
