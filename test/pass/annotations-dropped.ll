; The pass consumes its own annotations: their llvm.global.annotations entries
; go away (others stay), and a discardable function that only the annotation
; kept alive (inlined everywhere, say) is deleted instead of emitted dead.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -S %s -o - | %opt_at -passes=activetime -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str.no = private unnamed_addr constant [25 x i8] c"activetime.no_instrument\00", section "llvm.metadata"
@.str.other = private unnamed_addr constant [6 x i8] c"hello\00", section "llvm.metadata"
@.str.file = private unnamed_addr constant [6 x i8] c"x.cpp\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @dead_internal, ptr @.str.no, ptr @.str.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @dead_linkonce, ptr @.str.no, ptr @.str.file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @used_internal, ptr @.str.no, ptr @.str.file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @user_annotated, ptr @.str.other, ptr @.str.file, i32 4, ptr null }], section "llvm.metadata"

; CHECK: @llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @user_annotated, ptr @.str.other,

; CHECK-NOT: define {{.*}}@dead_internal
define internal void @dead_internal() {
  ret void
}

; CHECK-NOT: define {{.*}}@dead_linkonce
define linkonce_odr void @dead_linkonce() {
  ret void
}

; Still called: kept, and still not instrumented.
; CHECK-LABEL: define internal void @used_internal()
; CHECK-NOT: __activetime_func_enter
; CHECK: ret void
define internal void @used_internal() {
  ret void
}

; CHECK-LABEL: define void @user_annotated()
; CHECK: call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK: musttail call void @user_annotated.activetime.timed()
; CHECK-NOT: @used_internal.activetime.timed
; CHECK-LABEL: define internal void @user_annotated.activetime.timed()
; CHECK: call void @__activetime_func_enter
define void @user_annotated() {
  call void @used_internal()
  ret void
}
