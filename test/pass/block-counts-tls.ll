; Block counts in an executable's code (PIE; not PIC is alike): each
; function's counters move to a thread-local copy in static TLS, in the
; counters' COMDAT group, with an entry (kThreadCountersSection) mapping one
; to the other and a function returning the calling thread's copy. The bias
; is still tested (0 starts the thread), but no counter address uses it.
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts %s | %opt -passes=verify -disable-output
; Turned off, the executable's counters are offset by the bias instead.
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts -activetime-block-counts-tls=false -S %s | FileCheck --check-prefix=OFF %s
; OFF-NOT: thread_local(localexec)
; OFF: add i64 %{{.*}}, ptrtoint (ptr @__profc_f to i64)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$__profc_f = comdat nodeduplicate
$__profc_inl = comdat any

@__profc_f = private global [3 x i64] zeroinitializer, section "__llvm_prf_cnts", comdat, align 8
@__profd_f = private global { i64, i64, i64, i64, ptr, ptr, i32, [3 x i16], i32 } { i64 -3706093650706652785, i64 212526878935420674, i64 sub (i64 ptrtoint (ptr @__profc_f to i64), i64 ptrtoint (ptr @__profd_f to i64)), i64 0, ptr @f, ptr null, i32 3, [3 x i16] zeroinitializer, i32 0 }, section "__llvm_prf_data", comdat($__profc_f), align 8
@__profc_inl = linkonce_odr hidden global [1 x i64] zeroinitializer, section "__llvm_prf_cnts", comdat, align 8
@__profd_inl = linkonce_odr hidden global { i64, i64, i64, i64, ptr, ptr, i32, [3 x i16], i32 } { i64 1, i64 2, i64 sub (i64 ptrtoint (ptr @__profc_inl to i64), i64 ptrtoint (ptr @__profd_inl to i64)), i64 0, ptr null, ptr null, i32 1, [3 x i16] zeroinitializer, i32 0 }, section "__llvm_prf_data", comdat($__profc_inl), align 8
@llvm.compiler.used = appending global [2 x ptr] [ptr @__profd_f, ptr @__profd_inl], section "llvm.metadata"

; CHECK: @__activetime_block_counts = linkonce_odr hidden global { ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr } { ptr @__activetime_block_bias_slot, ptr @__start___llvm_prf_cnts, ptr @__stop___llvm_prf_cnts, ptr @__start___llvm_prf_data, ptr @__stop___llvm_prf_data, ptr @__start___llvm_prf_names, ptr @__stop___llvm_prf_names, ptr @__start___activetime_tcnts, ptr @__stop___activetime_tcnts, ptr null }, comdat
; A private function's copy stays private; an inline function's is merged
; with its counters by the linker.
; CHECK-DAG: @__profc_f.at.tls = private thread_local(localexec) global [3 x i64] zeroinitializer, comdat($__profc_f), align 8
; CHECK-DAG: @__profc_f.at.tls.entry = private global { ptr, ptr, i64 } { ptr @__profc_f, ptr @__profc_f.at.tls.addr, i64 3 }, section "__activetime_tcnts", comdat($__profc_f), align 8
; CHECK-DAG: @__profc_inl.at.tls = linkonce_odr hidden thread_local(localexec) global [1 x i64] zeroinitializer, comdat($__profc_inl), align 8
; CHECK-DAG: @__profc_inl.at.tls.entry = private global { ptr, ptr, i64 } { ptr @__profc_inl, ptr @__profc_inl.at.tls.addr, i64 1 }, section "__activetime_tcnts", comdat($__profc_inl), align 8
; CHECK-DAG: @llvm.compiler.used = appending global [4 x ptr] [ptr @__profd_f, ptr @__profd_inl, ptr @__profc_{{f|inl}}.at.tls.entry, ptr @__profc_{{f|inl}}.at.tls.entry], section "llvm.metadata"

; CHECK-LABEL: define dso_local i32 @f(
; CHECK-NEXT: [[SLOT:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_block_bias)
; CHECK-NEXT: [[FAST:%.*]] = load i64, ptr [[SLOT]], align 8
; CHECK-NEXT: [[UNSET:%.*]] = icmp eq i64 [[FAST]], 0
; CHECK-NEXT: br i1 [[UNSET]], label %[[SLOWBB:.*]], label %[[CONT:.*]], !prof
; CHECK: [[SLOWBB]]:
; CHECK-NEXT: call preserve_mostcc i64 @__activetime_block_start()
; CHECK-NEXT: br label %[[CONT]]
; CHECK: [[CONT]]:
; Each access gets its own address, right before it: one %fs-relative
; operand each after instruction selection.
; CHECK-NEXT: [[C0:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[P0:%.*]] = getelementptr inbounds i8, ptr [[C0]], i64 0
; CHECK-NEXT: [[V0:%.*]] = load i64, ptr [[P0]]
; CHECK-NEXT: [[N0:%.*]] = add i64 [[V0]], 1
; CHECK-NEXT: [[C1:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[P1:%.*]] = getelementptr inbounds i8, ptr [[C1]], i64 0
; CHECK-NEXT: store i64 [[N0]], ptr [[P1]]
; CHECK-NEXT: [[C2:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[P2:%.*]] = getelementptr inbounds i8, ptr [[C2]], i64 16
; CHECK-NEXT: load i64, ptr [[P2]]
; CHECK-NOT: @__profc_f{{[,)]}}
; CHECK: [[C3:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_inl.at.tls)
; CHECK-NEXT: getelementptr inbounds i8, ptr [[C3]], i64 0
; CHECK-NOT: @__profc_{{f|inl}}{{[,)]}}
; CHECK: ret i32
define dso_local i32 @f(i32 noundef %0) local_unnamed_addr {
  %2 = load i64, ptr @__profc_f, align 8
  %3 = add i64 %2, 1
  store i64 %3, ptr @__profc_f, align 8
  %4 = load i64, ptr getelementptr inbounds (i8, ptr @__profc_f, i64 16), align 8
  %5 = add i64 %4, 1
  store i64 %5, ptr getelementptr inbounds (i8, ptr @__profc_f, i64 16), align 8
  %6 = load i64, ptr @__profc_inl, align 8
  %7 = add i64 %6, 1
  store i64 %7, ptr @__profc_inl, align 8
  ret i32 %0
}

; Counter addresses the optimizer chose between (a select, a PHI, an
; integer): each is the thread's, built where the value is chosen.
; CHECK-LABEL: define dso_local void @chosen(
; CHECK: [[S0:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[G0:%.*]] = getelementptr inbounds i8, ptr [[S0]], i64 0
; CHECK-NEXT: [[S1:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[G1:%.*]] = getelementptr inbounds i8, ptr [[S1]], i64 8
; CHECK-NEXT: select i1 %c, ptr [[G0]], ptr [[G1]]
; CHECK: left:
; CHECK: [[L:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[LG:%.*]] = getelementptr inbounds i8, ptr [[L]], i64 16
; CHECK-NEXT: br label %join
; CHECK: right:
; CHECK: [[R:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: [[RG:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 8
; CHECK-NEXT: [[RI:%.*]] = ptrtoint ptr [[RG]] to i64
; CHECK: br label %join
; CHECK: join:
; CHECK-NEXT: phi ptr [ [[LG]], %left ], [ {{.*}}, %right ]
; CHECK-NEXT: phi i64 [ 0, %left ], [ [[RI]], %right ]
; CHECK-NOT: @__profc_f{{[,)]}}
; CHECK: ret void
define dso_local void @chosen(i1 %c) {
  %p = select i1 %c, ptr @__profc_f, ptr getelementptr inbounds (i8, ptr @__profc_f, i64 8)
  %v = load i64, ptr %p, align 8
  %n = add i64 %v, 1
  store i64 %n, ptr %p, align 8
  br i1 %c, label %left, label %right

left:
  br label %join

right:
  br label %join

join:
  %q = phi ptr [ getelementptr inbounds (i8, ptr @__profc_f, i64 16), %left ], [ getelementptr inbounds (i8, ptr @__profc_f, i64 8), %right ]
  %i = phi i64 [ 0, %left ], [ ptrtoint (ptr getelementptr inbounds (i8, ptr @__profc_f, i64 8) to i64), %right ]
  %w = load i64, ptr %q, align 8
  %m = add i64 %w, %i
  store i64 %m, ptr %q, align 8
  ret void
}

; CHECK-LABEL: define private ptr @__profc_f.at.tls.addr() {{.*}}comdat($__profc_f)
; CHECK-NEXT: [[A:%.*]] = call align 8 ptr @llvm.threadlocal.address.p0(ptr align 8 @__profc_f.at.tls)
; CHECK-NEXT: ret ptr [[A]]

!llvm.module.flags = !{!1, !2}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
