; The exit check goes before a musttail call, which stays immediately before
; its ret, and the musttail call is never turned into an invoke. A function
; with a musttail call gets no timed copy (it could not jump to it and keep
; its own musttail call): it is instrumented in place, the entry probe and
; every exit probe conditional on the count.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -filetype=null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i32 @callee(i32)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

define i32 @tail_caller(i32 %x) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define i32 @tail_caller(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK:       tail:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[CALL:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    br label %[[CALL]]
; CHECK:       {{^}}[[CALL]]:
; CHECK-NEXT:    %r = musttail call i32 @callee(i32 %x)
; CHECK-NEXT:    ret i32 %r
; CHECK:       other:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT2:[0-9]+]], label %[[RET2:[0-9]+]]
; CHECK:       {{^}}[[EXIT2]]:
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]])
; CHECK-NEXT:    br label %[[RET2]]
; CHECK:       {{^}}[[RET2]]:
; CHECK-NEXT:    ret i32 0
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT3:[0-9]+]], label %[[RESUME:[0-9]+]]
; CHECK:       {{^}}[[EXIT3]]:
; CHECK-NEXT:    [[F3:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F3]])
; CHECK-NEXT:    br label %[[RESUME]]
; CHECK:       {{^}}[[RESUME]]:
; CHECK-NEXT:    resume
entry:
  call void @may_throw()
  %c = icmp eq i32 %x, 0
  br i1 %c, label %tail, label %other
tail:
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
other:
  ret i32 0
}
; CHECK-NOT: invoke i32 @callee
; CHECK-NOT: @tail_caller.activetime.timed
