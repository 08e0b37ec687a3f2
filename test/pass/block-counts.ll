; Block counts: a module that LLVM's IR PGO instrumentation lowered (what
; clang -Xclang -fprofile-instrument=llvm -O2 -fPIC leaves, trimmed). In code
; for a shared library each counter address is offset by the linked
; object's thread-local bias (block-counts-tls.ll: an executable's code),
; value profiling goes to the runtime, and one descriptor per linked object
; (a COMDAT group) names the sections for the constructor to register.
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts %s | %opt -passes=verify -disable-output
; Without the option nothing changes.
; RUN: %opt_at -passes=activetime-block-counts -S %s | FileCheck --check-prefix=OFF %s
; OFF-NOT: activetime
; Counters that LLVM relocated itself are refused with a message saying what
; to drop (the pass relocates them after the optimizer).
; RUN: sed 's/^@fp = .*/&\n@__llvm_profile_counter_bias = linkonce_odr hidden global i64 0/' %s > %t.rel.ll
; RUN: not %opt_at -passes=activetime-block-counts -activetime-block-counts -S %t.rel.ll -o /dev/null 2>&1 | FileCheck --check-prefix=REL %s
; REL: error: -activetime-block-counts: the IR PGO counters of '{{.*}}' are relocated; drop -mllvm -runtime-counter-relocation

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$__profc_f = comdat nodeduplicate

@fp = dso_local local_unnamed_addr global ptr null, align 8
@__profc_f = private global [2 x i64] zeroinitializer, section "__llvm_prf_cnts", comdat, align 8
@__profvp_f = private global [1 x i64] zeroinitializer, section "__llvm_prf_vals", comdat($__profc_f), align 8
@__profd_f = private global { i64, i64, i64, i64, ptr, ptr, i32, [3 x i16], i32 } { i64 -3706093650706652785, i64 212526878935420674, i64 sub (i64 ptrtoint (ptr @__profc_f to i64), i64 ptrtoint (ptr @__profd_f to i64)), i64 0, ptr @f, ptr @__profvp_f, i32 2, [3 x i16] [i16 1, i16 0, i16 0], i32 0 }, section "__llvm_prf_data", comdat($__profc_f), align 8
@__llvm_prf_nm = private constant [11 x i8] c"\01\09x\DAK\03\00\00g\00g", section "__llvm_prf_names", align 1
@llvm.used = appending global [1 x ptr] [ptr @__llvm_prf_nm], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @__profd_f], section "llvm.metadata"

; CHECK: $__activetime_block_counts = comdat any
; CHECK: @__activetime_block_bias = linkonce_odr hidden thread_local(initialexec) global i64 0, comdat($__activetime_block_counts)
; CHECK: @__start___llvm_prf_cnts = extern_weak hidden global i64
; CHECK: @__activetime_block_counts = linkonce_odr hidden global { ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr } { ptr @__activetime_block_bias_slot, ptr @__start___llvm_prf_cnts, ptr @__stop___llvm_prf_cnts, ptr @__start___llvm_prf_data, ptr @__stop___llvm_prf_data, ptr @__start___llvm_prf_names, ptr @__stop___llvm_prf_names, ptr @__start___activetime_tcnts, ptr @__stop___activetime_tcnts, ptr null }, comdat
; CHECK-NOT: thread_local(localexec)
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__activetime_block_counts_ctor, ptr @__activetime_block_counts }]
; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__activetime_block_counts_dtor, ptr @__activetime_block_counts }]

; The thread's bias; 0 (no copies yet, or no longer) takes the runtime's
; slow path, which sets the thread's copies up. Each access gets its address
; right before it.
; CHECK-LABEL: define i32 @f(
; CHECK-NEXT: [[SLOT:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_block_bias)
; CHECK-NEXT: [[FAST:%.*]] = load i64, ptr [[SLOT]], align 8
; CHECK-NEXT: [[UNSET:%.*]] = icmp eq i64 [[FAST]], 0
; CHECK-NEXT: br i1 [[UNSET]], label %[[SLOWBB:.*]], label %[[CONT:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK: [[SLOWBB]]:
; CHECK-NEXT: [[SET:%.*]] = call preserve_mostcc i64 @__activetime_block_start()
; CHECK-NEXT: br label %[[CONT]]
; CHECK: [[CONT]]:
; CHECK-NEXT: [[BIAS:%.*]] = phi i64 [ [[FAST]], %{{.*}} ], [ [[SET]], %[[SLOWBB]] ]
; CHECK-NEXT: [[A0:%.*]] = add i64 [[BIAS]], ptrtoint (ptr @__profc_f to i64)
; CHECK-NEXT: [[P0:%.*]] = inttoptr i64 [[A0]] to ptr
; CHECK-NEXT: [[V0:%.*]] = load i64, ptr [[P0]]
; CHECK-NEXT: [[N0:%.*]] = add i64 [[V0]], 1
; CHECK-NEXT: [[A1:%.*]] = add i64 [[BIAS]], ptrtoint (ptr @__profc_f to i64)
; CHECK-NEXT: [[P1:%.*]] = inttoptr i64 [[A1]] to ptr
; CHECK-NEXT: store i64 [[N0]], ptr [[P1]]
; CHECK: add i64 [[BIAS]], ptrtoint (ptr getelementptr (i8, ptr @__profc_f, i64 8) to i64)
; CHECK: call void @__activetime_value_profile(i64 %{{.*}}, ptr nonnull @__profd_f, i32 0)
define i32 @f(i32 noundef %0) local_unnamed_addr {
  %2 = load i64, ptr @__profc_f, align 8
  %3 = add i64 %2, 1
  store i64 %3, ptr @__profc_f, align 8
  %4 = icmp sgt i32 %0, 0
  br i1 %4, label %5, label %11

5:
  %6 = load i64, ptr getelementptr inbounds (i8, ptr @__profc_f, i64 8), align 8
  %7 = add i64 %6, 1
  store i64 %7, ptr getelementptr inbounds (i8, ptr @__profc_f, i64 8), align 8
  %8 = load ptr, ptr @fp, align 8
  %9 = ptrtoint ptr %8 to i64
  tail call void @__llvm_profile_instrument_target(i64 %9, ptr nonnull @__profd_f, i32 0)
  %10 = tail call i32 %8(i32 noundef %0)
  br label %11

11:
  %12 = phi i32 [ %10, %5 ], [ 0, %1 ]
  ret i32 %12
}

; Static allocas stay in the entry block, before the check, even one the
; optimizer left after other instructions (it would be allocated at run
; time past the split).
; CHECK-LABEL: define i64 @g(
; CHECK-NEXT: [[A:%.*]] = alloca i64, align 8
; CHECK-NEXT: alloca i32, align 4
; CHECK-NEXT: call ptr @llvm.threadlocal.address.p0(ptr @__activetime_block_bias)
define i64 @g(i64 %x) {
  %a = alloca i64, align 8
  store i64 %x, ptr %a, align 8
  %late = alloca i32, align 4
  store i32 1, ptr %late, align 4
  %c = load i64, ptr @__profc_f, align 8
  %n = add i64 %c, 1
  store i64 %n, ptr @__profc_f, align 8
  %r = load i64, ptr %a, align 8
  ret i64 %r
}

; A function that counts nothing is left alone.
; CHECK-LABEL: define i64 @h(
; CHECK-NEXT: ret i64 1
define i64 @h() {
  ret i64 1
}

; CHECK-NOT: __llvm_profile_instrument_target
; CHECK: declare void @__activetime_value_profile(i64, ptr, i32)
; CHECK-LABEL: define linkonce_odr hidden ptr @__activetime_block_bias_slot() {{.*}}comdat($__activetime_block_counts)
; CHECK: ret ptr
; The slow path keeps the caller's registers (its hot path needs no frame)
; and hands the runtime the object's descriptor.
; CHECK-LABEL: define linkonce_odr hidden preserve_mostcc i64 @__activetime_block_start() {{.*}}comdat($__activetime_block_counts)
; CHECK-NEXT: [[B:%.*]] = notail call i64 @__activetime_block_thread(ptr @__activetime_block_counts)
; CHECK-NEXT: ret i64 [[B]]
; CHECK-LABEL: define linkonce_odr hidden void @__activetime_block_counts_ctor() {{.*}}comdat($__activetime_block_counts)
; CHECK: call void @__activetime_version_mismatch_check_v7()
; CHECK: call void @__activetime_register_block_counts(ptr @__activetime_block_counts)
; CHECK-LABEL: define linkonce_odr hidden void @__activetime_block_counts_dtor()
; CHECK: call void @__activetime_unregister_block_counts(ptr @__activetime_block_counts)
declare void @__llvm_profile_instrument_target(i64, ptr, i32)

!llvm.module.flags = !{!1}
!1 = !{i32 8, !"PIC Level", i32 2}
