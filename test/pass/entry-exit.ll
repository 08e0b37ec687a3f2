; Entry probe after the leading static allocas, an exit probe before every
; ret, and the descriptor argument is the function's element of the table.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @use(ptr) nounwind

define i32 @first(i32 %x) nounwind {
; CHECK-LABEL: define i32 @first(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    %b = alloca [4 x i32]
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]]) #[[NOUNWIND:[0-9]+]]
; CHECK-NEXT:    call void @use(ptr %a)
; CHECK-NEXT:    %dyn = alloca i32, i32 %x
entry:
  %a = alloca i32
  %b = alloca [4 x i32]
  call void @use(ptr %a)
  %dyn = alloca i32, i32 %x
  call void @use(ptr %dyn)
  %c = icmp slt i32 %x, 0
  br i1 %c, label %neg, label %next
; CHECK:       neg:
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]]) #[[NOUNWIND]]
; CHECK-NEXT:    ret i32 -1
neg:
  ret i32 -1
; CHECK:       next:
; CHECK-NEXT:    %z = icmp eq i32 %x, 0
; CHECK-NEXT:    br i1 %z, label %zero, label %pos
next:
  %z = icmp eq i32 %x, 0
  br i1 %z, label %zero, label %pos
; CHECK:       zero:
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]]) #[[NOUNWIND]]
; CHECK-NEXT:    ret i32 0
zero:
  ret i32 0
; CHECK:       pos:
; CHECK-NEXT:    [[F3:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F3]]) #[[NOUNWIND]]
; CHECK-NEXT:    ret i32 1
pos:
  ret i32 1
}
; CHECK-NOT:   call void @__activetime_func_exit

; A second function uses the second element of the table.
define void @second() nounwind {
; CHECK-LABEL: define void @second(
; CHECK-NEXT:    [[G:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[G]])
; CHECK-NEXT:    [[G1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[G1]])
; CHECK-NEXT:    ret void
  ret void
}

; CHECK: declare void @__activetime_func_enter(ptr, ptr) #[[NOUNWIND]]
; CHECK: declare void @__activetime_func_exit(ptr, ptr) #[[NOUNWIND]]
; CHECK: attributes #[[NOUNWIND]] = { nounwind }
