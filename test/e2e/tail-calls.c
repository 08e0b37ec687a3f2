// Tail calls stay tail calls: at -O2 caller ends in `return callee(...)`.
// Whether caller gets a timed copy (the default for small functions) or is
// instrumented in place (-activetime-clone-max-size=0), the binary keeps the
// call a jump: in the counted path (the original function) and after the
// exit probe of the timed path, with no call of callee anywhere. callee then
// runs outside caller's timed frame, as the uninstrumented stack has it: with
// every call timed the tree has main > caller and main > callee, 1000 calls
// each. The profile is consistent: exact calls (caller, some 20 us a call,
// stays timed; the short callee is counted after its first calls), no
// unwound frames and no unmatched exits.
// REQUIRES: x86_64
// ThreadSanitizer instruments every function's exit after its last call: no
// tail calls to keep.
// UNSUPPORTED: tsan
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %s -o tc
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=caller tc | FileCheck --check-prefix=ORIG %s
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=caller.activetime.timed tc | FileCheck --check-prefix=COPY %s
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c), after this short program has ended.
// RUN: env ACTIVETIME_OPTIONS=output=tc.raw:calibrate_at_start=1 ./tc | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json tc.raw | python3 %S/Inputs/counts.py | FileCheck --check-prefix=COUNTS %s
// RUN: %activetime report --json tc.raw | FileCheck --check-prefix=CLEAN %s
// RUN: env ACTIVETIME_OPTIONS=output=tc-timed.raw:timing_ratio=0 ./tc | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json tc-timed.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report --json tc-timed.raw | FileCheck --check-prefix=CLEAN %s
// In place: one function, its exit probe conditional.
// RUN: %at_cc -O2 -g %s -o inplace -mllvm -activetime-clone-max-size=0
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=caller inplace | FileCheck --check-prefix=INPLACE %s
// RUN: llvm-objdump -t inplace | FileCheck --check-prefix=NOCOPY %s
// RUN: env ACTIVETIME_OPTIONS=output=inplace.raw:calibrate_at_start=1 ./inplace | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json inplace.raw | python3 %S/Inputs/counts.py | FileCheck --check-prefix=COUNTS %s
// RUN: %activetime report --json inplace.raw | FileCheck --check-prefix=CLEAN %s
// RUN: env ACTIVETIME_OPTIONS=output=inplace-timed.raw:timing_ratio=0 ./inplace | FileCheck --check-prefix=OUT %s
// RUN: %activetime report --json inplace-timed.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// RUN: %activetime report --json inplace-timed.raw | FileCheck --check-prefix=CLEAN %s
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
volatile long sink;

NOINLINE long callee(long x) {
  sink += x;
  return sink;
}

NOINLINE long caller(long x) {
  for (long i = 0; i < 20000; ++i)
    sink += i * x;
  return callee(x + 1);
}

int main(void) {
  long s = 0;
  for (long i = 0; i < 1000; ++i)
    s += caller(i);
  printf("s=%d\n", s != 0);
  return 0;
}

// OUT: s=1

// The original counts the call, jumps to the timed copy while the count is
// not negative, else runs the body and jumps to callee (the order of the two
// jumps depends on the block layout).
// ORIG-LABEL: <caller>:
// ORIG-NOT:   call{{.*}} <callee>
// ORIG-DAG:   {{jns|jmp}} {{.*}} <caller.activetime.timed>
// ORIG-DAG:   jmp {{.*}} <callee>
// ORIG-NOT:   call{{.*}} <callee>
// COPY-LABEL: <caller.activetime.timed>:
// COPY:       call{{.*}} <__activetime_func_enter>
// COPY-NOT:   call{{.*}} <callee>
// COPY:       call{{.*}} <__activetime_func_exit>
// COPY-NOT:   call
// COPY:       jmp {{.*}} <callee>
// INPLACE-LABEL: <caller>:
// INPLACE-NOT:   call{{.*}} <callee>
// INPLACE:       jmp {{.*}} <callee>
// INPLACE-NOT:   call{{.*}} <callee>
// NOCOPY-NOT: activetime.timed

// COUNTS:      callee how=counted calls=1000 counted={{[0-9]+}} timed={{16|64|256}} nodes=1 maxnode={{[0-9]+}} rel=ok
// COUNTS-NEXT: caller how=timed calls=1000 counted=0 timed=1000 nodes=1 maxnode=1000 rel=ok
// COUNTS-NEXT: main how=timed calls=1 counted=0 timed=1 nodes=1 maxnode=1 rel=ok

// No repair anywhere (process, threads, in all).
// CLEAN:     "schema": "activetime-report"
// CLEAN-NOT: {{"(open_frames|unwound_frames|unmatched_exits|dropped_events)": [1-9]}}

// TREE:      1 main{{$}}
// TREE-NEXT: 1000 main > callee{{$}}
// TREE-NEXT: 1000 main > caller{{$}}
// TREE-NOT:  {{.}}
