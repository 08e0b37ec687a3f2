; -activetime-min-size=N skips leaves (no calls except to intrinsics) with
; fewer than N instructions; debug intrinsics do not count, and a function
; that calls something is kept however small it is.
; RUN: %opt_at -passes=activetime -activetime-min-size=4 -activetime-print-decisions \
; RUN:   -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WHY < %t.err
; RUN: %opt_at -passes=activetime -activetime-print-decisions -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEFAULT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @ext()
declare void @llvm.donothing()

; 3 instructions, with an intrinsic call: a tiny leaf.
define i32 @tiny_leaf(i32 %x) {
; CHECK-LABEL: define i32 @tiny_leaf(
; CHECK-NEXT:    call void @llvm.donothing()
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK-NEXT:    ret i32 %y
  call void @llvm.donothing()
  %y = add i32 %x, 1
  ret i32 %y
}

; 2 instructions, but one is a real call.
define void @tiny_caller() {
; CHECK-LABEL: define void @tiny_caller(
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
  call void @ext()
  ret void
}

; Exactly at the threshold: kept.
define i32 @four(i32 %x) {
; CHECK-LABEL: define i32 @four(
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  %c = sub i32 %b, %x
  ret i32 %c
}

; WHY-DAG: activetime: skip tiny_leaf: tiny leaf below -activetime-min-size
; WHY-DAG: activetime: instrument tiny_caller
; WHY-DAG: activetime: instrument four

; DEFAULT-DAG: activetime: instrument tiny_leaf
; DEFAULT-DAG: activetime: instrument tiny_caller
; DEFAULT-DAG: activetime: instrument four
