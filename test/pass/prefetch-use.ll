; Prefetch feedback: a hint file from `activetime export --format=prefetch`
; inserts llvm.prefetch before the hinted constant-stride load, distance_bytes
; ahead of its address, and nothing else: no probes, no tables. One prefetch
; serves loads off the same base within a cache line (p->v and p->next).
; Unused hints of other modules (by source file name) are ignored silently;
; stale or mismatched hints of this module are reported and ignored; a
; malformed file is reported and the module left as it is.
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints.json -S %s 2>%t.err | FileCheck %s
; RUN: count 0 < %t.err
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints-stale.json -S %s 2>&1 | FileCheck %s --check-prefix=STALE
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints-bad.json -S %s 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%t.missing -S %s 2>&1 | FileCheck %s --check-prefix=MISSING
; The instrumentation pass's name with a hint file runs the feedback too, as
; clang does when given -activetime-prefetch-use.
; RUN: %opt_at -passes=activetime -activetime-prefetch-use=%S/Inputs/hints.json -S %s 2>%t.err | FileCheck %s
; RUN: count 0 < %t.err
; -activetime-print-decisions says each prefetch and how far ahead, with how
; the export chose the distance when the hint file says (8 iterations of a
; 12.5 ns step to cover 100 ns), and that it does not say otherwise.
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints-model.json -activetime-print-decisions -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECIDE
; DECIDE: activetime: prefetch in chase (no debug location): 128 bytes ahead = 8 iterations of stride 16: a profiled iteration of 12.5 ns without the miss, 8 of them to cover the 100 ns miss latency (the hint file's)
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints.json -activetime-print-decisions -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECIDE-OLD
; DECIDE-OLD: activetime: prefetch in chase (no debug location): 128 bytes ahead (stride 16; the hint file does not say how the distance was chosen)
; The feedback pass without a hint file is a usage error.
; RUN: not %opt_at -passes=activetime-prefetch-use -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
; Run twice (as in both halves of an LTO build), the hints are applied once.
; RUN: %opt_at -passes=activetime-prefetch-use,activetime-prefetch-use,activetime -activetime-prefetch-use=%S/Inputs/hints.json -S %s 2>%t.err | FileCheck %s

; CHECK-NOT: __activetime_module
; CHECK-NOT: __activetime_bootstrap_counts
; CHECK-LABEL: define i64 @chase(
; CHECK: %vp = getelementptr
; CHECK-NEXT: %activetime.prefetch.addr = getelementptr i8, ptr %vp, i64 128
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %activetime.prefetch.addr, i32 0, i32 3, i32 1)
; CHECK-NEXT: %v = load i64, ptr %vp
; CHECK-NEXT: %next = load ptr, ptr %p
; CHECK-NOT: prefetch
; CHECK: ret i64
; CHECK-NOT: __activetime_mem_access
; CHECK-NOT: __activetime_func_enter
; CHECK-NOT: activetime.timed
; CHECK-NOT: __activetime_counts

; STALE-DAG: chase.c: warning: activetime: stale prefetch hint for chase at :0:0 (key 0x1234): no such site in this compile; ignored
; STALE-DAG: chase.c: warning: activetime: prefetch hint for chase at :7:0 does not match the site with its key in this compile; ignored
; STALE-NOT: llvm.prefetch

; BAD: chase.c: warning: activetime: ignoring prefetch hints: {{.*}}hints-bad.json: hint 0: missing or malformed field
; BAD-NOT: llvm.prefetch
; MISSING: warning: activetime: ignoring prefetch hints: {{.*}}.missing: {{[Nn]}}o such file or directory
; NOFILE: error: activetime: the prefetch-use pass needs a hint file (-activetime-prefetch-use=FILE)

source_filename = "chase.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.N = type { ptr, i64 }
define i64 @chase(ptr %head) {
entry:
  %e = icmp eq ptr %head, null
  br i1 %e, label %exit, label %loop
loop:
  %p = phi ptr [ %head, %entry ], [ %next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %vp = getelementptr inbounds %struct.N, ptr %p, i64 0, i32 1
  %v = load i64, ptr %vp
  %next = load ptr, ptr %p
  %s.next = add i64 %s, %v
  %done = icmp eq ptr %next, null
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  ret i64 %r
}
