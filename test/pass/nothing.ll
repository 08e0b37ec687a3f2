; A module with nothing to instrument gets no table, no constructor, not
; even probe declarations; it is only marked as processed.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-NOT: __activetime_funcs
; CHECK-NOT: __activetime_module
; CHECK-NOT: llvm.global_ctors
; CHECK-NOT: llvm.global_dtors
; CHECK-NOT: activetime.module_ctor
; CHECK-NOT: __activetime_func_enter
; CHECK-NOT: __activetime_bootstrap_counts
; CHECK-NOT: __activetime_counts
; CHECK-NOT: activetime.timed
; CHECK:     !{i32 7, !"activetime.instrumented", i32 1}

@data = global i32 1

declare void @ext()

define void @off() "activetime-no-instrument" {
  call void @ext()
  ret void
}
