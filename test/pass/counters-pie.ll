; A PIE module (PIC and PIE levels set; not PIC at all is the same, see
; table.ll): the module owns its counter pointer, internal and local-exec
; thread-local, initialized to the module's bootstrap array (one zero, i.e.
; "timed", per function), so the counted path is one %fs-relative load and
; an increment at a constant offset. The descriptor carries the bootstrap
; array, Flags 0, and the constructor stores the pointer's address into
; CountsTls.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -relocation-model=pic -filetype=null
; RUN: %opt_at -passes=activetime %s | llc -O2 -relocation-model=pic -o - \
; RUN:   | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-NOT: @__activetime_counts =
; CHECK:     @__activetime_bootstrap_counts = internal global [2 x i64] zeroinitializer
; CHECK:     @__activetime_module_counts = internal thread_local(localexec) global ptr @__activetime_bootstrap_counts
; CHECK-NOT: @__activetime_counts =
; CHECK:     @__activetime_module = internal global { i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 } { i32 7, i32 2, ptr @__activetime_funcs, ptr @{{.*}}, i64 {{-?[0-9]+}}, ptr null, i32 0, i32 0, ptr null, i32 0, i32 0, ptr null, ptr @__activetime_bootstrap_counts, ptr null, i32 0, i32 0 }
; CHECK-NOT: @__activetime_counts =

define void @a() nounwind {
; CHECK-LABEL: define void @a()
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 0
; CHECK-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; CHECK-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; CHECK-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; CHECK-NEXT:    br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[JUMP]]:
; CHECK-NEXT:    musttail call void @a.activetime.timed()
; CHECK-NEXT:    ret void
  ret void
}

; In place (varargs): the same count, at the second counter.
define void @b(i32 %n, ...) nounwind {
; CHECK-LABEL: define void @b(
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 1
; CHECK-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; CHECK-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; CHECK-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
  ret void
}

; CHECK-LABEL: define internal void @activetime.module_ctor()
; CHECK-NEXT:    call void @__activetime_version_mismatch_check_v7()
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    store ptr [[TLS]], ptr getelementptr inbounds ({ i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 }, ptr @__activetime_module, i32 0, i32 11), align 8
; CHECK-NEXT:    call void @__activetime_register_module(ptr @__activetime_module)
; CHECK-NEXT:    ret void

; Local-exec even with -relocation-model=pic: no GOT, no __tls_get_addr.
; ASM-LABEL: a:
; ASM-NOT:     call
; ASM:         movq %fs:__activetime_module_counts@TPOFF, [[P:%r[a-z0-9]+]]
; ASM-NEXT:    incq ([[P]])
; ASM-NEXT:    j{{ns|mp}} a.activetime.timed # TAILCALL
; ASM-NOT:     call
; ASM:       .Lfunc_end0:
; ASM-NOT:   __tls_get_addr
; ASM-NOT:   GOTTPOFF
; ASM:         .section .tdata,"awT",@progbits
; ASM:       __activetime_module_counts:
; ASM-NEXT:    .quad __activetime_bootstrap_counts

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
