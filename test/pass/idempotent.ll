; A module carrying the activetime.instrumented flag is left alone, whether
; the pass runs twice in one pipeline or again on its own output: one table,
; one set of counters, one count per call and no copy of the copy.
; RUN: %opt_at -passes=activetime,activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime %s | %opt_at -passes=activetime -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK:     @__activetime_bootstrap_counts = internal global [1 x i64]
; CHECK-NOT: @__activetime_bootstrap_counts.
; CHECK:     @__activetime_module_counts = internal thread_local(localexec) global ptr @__activetime_bootstrap_counts
; CHECK-NOT: @__activetime_module_counts.
; CHECK:     @__activetime_funcs = internal constant [1 x
; CHECK-NOT: @__activetime_funcs.
; CHECK:     @llvm.global_ctors = appending global [1 x
; CHECK:     @llvm.global_dtors = appending global [1 x

define void @f() nounwind {
; CHECK-LABEL: define void @f()
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    load ptr
; CHECK-NEXT:    getelementptr inbounds i64, ptr %activetime.counts, i64 0
; CHECK-NEXT:    load i64
; CHECK-NEXT:    add i64
; CHECK-NEXT:    store i64
; CHECK-NEXT:    %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed
; CHECK-NOT:     @llvm.threadlocal.address
; CHECK:         musttail call void @f.activetime.timed()
; CHECK-NEXT:    ret void
; CHECK-NOT:     call void @__activetime_func_
; CHECK:       }
; CHECK-LABEL: define internal void @f.activetime.timed()
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    ret void
  ret void
}

; CHECK-NOT: activetime.timed.activetime.timed
; CHECK-NOT: define internal void @activetime.module_ctor.
; CHECK:     !llvm.module.flags = !{[[FLAG:![0-9]+]]}
; CHECK:     [[FLAG]] = !{i32 7, !"activetime.instrumented", i32 1}
