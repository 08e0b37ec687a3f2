; A PIC module that is not PIE (a shared library): no counter pointer of its
; own (a module-owned TLS variable would need __tls_get_addr at every entry,
; or static TLS that dlopen may lack). The counts go through the runtime's
; initial-exec pointer __activetime_counts, from the module's CountBase on,
; which the runtime writes into the descriptor at registration and every
; entry loads. Flags say MDF_SharedCounts; no bootstrap array, and the
; constructor stores no CountsTls.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -relocation-model=pic -filetype=null
; RUN: %opt_at -passes=activetime %s | llc -O2 -relocation-model=pic -o - \
; RUN:   | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-NOT: __activetime_bootstrap_counts
; CHECK-NOT: __activetime_module_counts
; CHECK:     @__activetime_counts = external thread_local(initialexec) global ptr
; CHECK-NOT: __activetime_bootstrap_counts
; CHECK-NOT: __activetime_module_counts
; CountBase 0 (the runtime's to write), Flags 1, CountsTls null, Bootstrap null.
; CHECK:     @__activetime_module = internal global { i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 } { i32 7, i32 2, ptr @__activetime_funcs, ptr @{{.*}}, i64 {{-?[0-9]+}}, ptr null, i32 0, i32 0, ptr null, i32 0, i32 1, ptr null, ptr null, ptr null, i32 0, i32 0 }

; Copied: the count, then the jump.
define void @a() nounwind {
; CHECK-LABEL: define void @a()
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; CHECK-NEXT:    %activetime.base = load i32, ptr getelementptr inbounds ({ i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 }, ptr @__activetime_module, i32 0, i32 9), align 4
; CHECK-NEXT:    [[BASE:%.*]] = zext i32 %activetime.base to i64
; CHECK-NEXT:    [[IDX:%.*]] = add i64 [[BASE]], 0
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 [[IDX]]
; CHECK-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; CHECK-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; CHECK-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; CHECK-NEXT:    br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[JUMP]]:
; CHECK-NEXT:    musttail call void @a.activetime.timed()
; CHECK-NEXT:    ret void
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    ret void
  ret void
}

; In place (varargs): the same count, the second counter of the module.
define void @b(i32 %n, ...) nounwind {
; CHECK-LABEL: define void @b(
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; CHECK-NEXT:    %activetime.base = load i32, ptr getelementptr inbounds ({ i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 }, ptr @__activetime_module, i32 0, i32 9), align 4
; CHECK-NEXT:    [[BASE:%.*]] = zext i32 %activetime.base to i64
; CHECK-NEXT:    [[IDX:%.*]] = add i64 [[BASE]], 1
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 [[IDX]]
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

; The constructor only checks the version and registers.
; CHECK-LABEL: define internal void @activetime.module_ctor()
; CHECK-NEXT:    call void @__activetime_version_mismatch_check_v7()
; CHECK-NEXT:    call void @__activetime_register_module(ptr @__activetime_module)
; CHECK-NEXT:    ret void

; One initial-exec load of the pointer (GOT-relative offset from %fs), the
; base from the descriptor, an in-memory increment; no call on the counted
; path.
; ASM-LABEL: a:
; ASM-NOT:     call
; ASM:         movq __activetime_counts@GOTTPOFF(%rip), [[R:%r[a-z0-9]+]]
; ASM-NEXT:    movq %fs:([[R]]), [[P:%r[a-z0-9]+]]
; ASM-NEXT:    movl __activetime_module+56(%rip), [[B:%e[a-z0-9]+]]
; ASM-NEXT:    incq ([[P]],{{%r[a-z0-9]+}},8)
; ASM-NEXT:    j{{ns|s}}
; ASM-NOT:     call
; ASM:       .Lfunc_end0:
; ASM-NOT:   __tls_get_addr
; ASM-NOT:   .tdata
; ASM-NOT:   .tbss

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIC Level", i32 2}
