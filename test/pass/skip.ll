; Functions the pass leaves alone, and why; forced instrumentation.
; RUN: %opt_at -passes=activetime -activetime-print-decisions -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WHY < %t.err
; RUN: %opt_at -passes=activetime -activetime-min-size=1000 -S %s | FileCheck %s --check-prefix=FORCE
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefix=COPIES \
; RUN:   --implicit-check-not='activetime.timed() unnamed_addr'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@.str.no = private unnamed_addr constant [25 x i8] c"activetime.no_instrument\00", section "llvm.metadata"
@.str.yes = private unnamed_addr constant [22 x i8] c"activetime.instrument\00", section "llvm.metadata"
@.str.other = private unnamed_addr constant [6 x i8] c"hello\00", section "llvm.metadata"
@.str.file = private unnamed_addr constant [6 x i8] c"x.cpp\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @annotated_off, ptr @.str.no, ptr @.str.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @annotated_on, ptr @.str.yes, ptr @.str.file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @annotated_other, ptr @.str.other, ptr @.str.file, i32 3, ptr null }], section "llvm.metadata"

declare void @declared()

define void @naked() naked {
  unreachable
}

define available_externally void @avail_ext() {
  ret void
}

define void @no_sanitize() disable_sanitizer_instrumentation {
  ret void
}

define void @attr_off() "activetime-no-instrument" {
  ret void
}

define void @annotated_off() {
  ret void
}

define void @annotated_other() {
  ret void
}

define void @__activetime_runtime_helper() {
  ret void
}

; Forced, by attribute and by annotation: kept even above the threshold.
define void @attr_on() "activetime-instrument" {
  ret void
}

define void @annotated_on() {
  ret void
}

; Opt-out wins over opt-in.
define void @both() "activetime-instrument" "activetime-no-instrument" {
  ret void
}

; WHY-DAG: activetime: skip declared: declaration
; WHY-DAG: activetime: skip naked: naked
; WHY-DAG: activetime: skip avail_ext: available_externally
; WHY-DAG: activetime: skip no_sanitize: disable_sanitizer_instrumentation
; WHY-DAG: activetime: skip attr_off: activetime-no-instrument attribute
; WHY-DAG: activetime: skip annotated_off: activetime.no_instrument annotation
; WHY-DAG: activetime: instrument annotated_other
; WHY-DAG: activetime: skip __activetime_runtime_helper: runtime function
; WHY-DAG: activetime: instrument attr_on
; WHY-DAG: activetime: instrument annotated_on
; WHY-DAG: activetime: skip both: activetime-no-instrument attribute

; CHECK-LABEL: define void @naked()
; CHECK-NEXT:    unreachable
; CHECK-LABEL: define available_externally void @avail_ext()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @no_sanitize()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @attr_off()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @annotated_off()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @annotated_other()
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-LABEL: define void @__activetime_runtime_helper()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define void @attr_on()
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-LABEL: define void @annotated_on()
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-LABEL: define void @both()
; CHECK-NEXT:    ret void

; Under a huge threshold only the forced functions remain.
; FORCE: @__activetime_funcs = internal constant [2 x { ptr, ptr, ptr, i32, i32 }] [{ ptr, ptr, ptr, i32, i32 } { ptr @attr_on, {{.*}} }, { ptr, ptr, ptr, i32, i32 } { ptr @annotated_on, {{.*}} }]
; FORCE-LABEL: define void @annotated_other()
; FORCE-NEXT:    ret void

; Only instrumented functions get a timed copy.
; COPIES: define internal void @annotated_other.activetime.timed() unnamed_addr
; COPIES: define internal void @attr_on.activetime.timed() unnamed_addr
; COPIES: define internal void @annotated_on.activetime.timed() unnamed_addr
