; Block counts: a module that LLVM's IR PGO instrumentation lowered with
; runtime counter relocation (what clang -Xclang -fprofile-instrument=llvm
; -mllvm -runtime-counter-relocation -O2 leaves, trimmed). The counter bias
; becomes the linked object's thread-local bias, value profiling goes to the
; runtime, and one descriptor per linked object (a COMDAT group) names the
; sections for the constructor to register.
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime-block-counts -activetime-block-counts %s | %opt -passes=verify -disable-output
; Without the option nothing changes.
; RUN: %opt_at -passes=activetime-block-counts -S %s | FileCheck --check-prefix=OFF %s
; OFF-NOT: activetime
; Counters without relocation are refused with a message saying what to add.
; RUN: sed 's/__llvm_profile_counter_bias/unrelated_global/g' %s > %t.norel.ll
; RUN: not %opt_at -passes=activetime-block-counts -activetime-block-counts -S %t.norel.ll -o /dev/null 2>&1 | FileCheck --check-prefix=NOREL %s
; NOREL: error: -activetime-block-counts: the IR PGO counters of '{{.*}}' are not relocated; add -mllvm -runtime-counter-relocation

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$__profc_f = comdat nodeduplicate
$__llvm_profile_counter_bias = comdat any

@fp = dso_local local_unnamed_addr global ptr null, align 8
@__profc_f = private global [2 x i64] zeroinitializer, section "__llvm_prf_cnts", comdat, align 8
@__profvp_f = private global [1 x i64] zeroinitializer, section "__llvm_prf_vals", comdat($__profc_f), align 8
@__profd_f = private global { i64, i64, i64, i64, ptr, ptr, i32, [3 x i16], i32 } { i64 -3706093650706652785, i64 212526878935420674, i64 sub (i64 ptrtoint (ptr @__profc_f to i64), i64 ptrtoint (ptr @__profd_f to i64)), i64 0, ptr @f, ptr @__profvp_f, i32 2, [3 x i16] [i16 1, i16 0, i16 0], i32 0 }, section "__llvm_prf_data", comdat($__profc_f), align 8
@__llvm_profile_counter_bias = linkonce_odr hidden local_unnamed_addr global i64 0, comdat
@__llvm_prf_nm = private constant [11 x i8] c"\01\09x\DAK\03\00\00g\00g", section "__llvm_prf_names", align 1
@llvm.used = appending global [1 x ptr] [ptr @__llvm_prf_nm], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @__profd_f], section "llvm.metadata"

; CHECK: $__activetime_block_counts = comdat any
; CHECK: @__activetime_block_bias = linkonce_odr hidden thread_local(initialexec) global i64 0, comdat($__activetime_block_counts)
; CHECK: @__start___llvm_prf_cnts = extern_weak hidden global i64
; CHECK: @__activetime_block_counts = linkonce_odr hidden global { ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr } { ptr @__activetime_block_bias_slot, ptr @__start___llvm_prf_cnts, ptr @__stop___llvm_prf_cnts, ptr @__start___llvm_prf_data, ptr @__stop___llvm_prf_data, ptr @__start___llvm_prf_names, ptr @__stop___llvm_prf_names, ptr null }, comdat
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__activetime_block_counts_ctor, ptr @__activetime_block_counts }]
; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__activetime_block_counts_dtor, ptr @__activetime_block_counts }]

; The thread's bias; 0 (no copies yet, or no longer) takes the runtime's
; slow path, which sets the thread's copies up.
; CHECK-LABEL: define dso_local i32 @f(
; CHECK-NEXT: [[SLOT:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_block_bias)
; CHECK-NEXT: [[FAST:%.*]] = load i64, ptr [[SLOT]], align 8
; CHECK-NEXT: [[UNSET:%.*]] = icmp eq i64 [[FAST]], 0
; CHECK-NEXT: br i1 [[UNSET]], label %[[SLOWBB:.*]], label %[[CONT:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK: [[SLOWBB]]:
; CHECK-NEXT: [[SET:%.*]] = call i64 @__activetime_block_thread(ptr @__activetime_block_counts)
; CHECK-NEXT: br label %[[CONT]]
; CHECK: [[CONT]]:
; CHECK-NEXT: [[BIAS:%.*]] = phi i64 [ [[FAST]], %{{.*}} ], [ [[SET]], %[[SLOWBB]] ]
; CHECK-NEXT: add i64 [[BIAS]], ptrtoint (ptr @__profc_f to i64)
; CHECK-NOT: __llvm_profile_counter_bias
; CHECK: add i64 [[BIAS]], ptrtoint (ptr getelementptr inbounds (i8, ptr @__profc_f, i64 8) to i64)
; CHECK: call void @__activetime_value_profile(i64 %{{.*}}, ptr nonnull @__profd_f, i32 0)
define dso_local i32 @f(i32 noundef %0) local_unnamed_addr {
  %2 = load i64, ptr @__llvm_profile_counter_bias, align 8, !invariant.load !0
  %3 = add i64 %2, ptrtoint (ptr @__profc_f to i64)
  %4 = inttoptr i64 %3 to ptr
  %5 = load i64, ptr %4, align 8
  %6 = add i64 %5, 1
  store i64 %6, ptr %4, align 8
  %7 = icmp sgt i32 %0, 0
  br i1 %7, label %8, label %16

8:
  %9 = add i64 %2, ptrtoint (ptr getelementptr inbounds (i8, ptr @__profc_f, i64 8) to i64)
  %10 = inttoptr i64 %9 to ptr
  %11 = load i64, ptr %10, align 8
  %12 = add i64 %11, 1
  store i64 %12, ptr %10, align 8
  %13 = load ptr, ptr @fp, align 8
  %14 = ptrtoint ptr %13 to i64
  tail call void @__llvm_profile_instrument_target(i64 %14, ptr nonnull @__profd_f, i32 0)
  %15 = tail call i32 %13(i32 noundef %0)
  br label %16

16:
  %17 = phi i32 [ %15, %8 ], [ 0, %1 ]
  ret i32 %17
}

; Static allocas stay in the entry block, before the check.
; CHECK-LABEL: define dso_local i64 @g(
; CHECK-NEXT: [[A:%.*]] = alloca i64, align 8
; CHECK-NEXT: call ptr @llvm.threadlocal.address.p0(ptr @__activetime_block_bias)
define dso_local i64 @g() {
  %1 = load i64, ptr @__llvm_profile_counter_bias, align 8, !invariant.load !0
  %2 = alloca i64, align 8
  store i64 %1, ptr %2, align 8
  %3 = load i64, ptr %2, align 8
  ret i64 %3
}

; CHECK-NOT: __llvm_profile_instrument_target
; CHECK: declare void @__activetime_value_profile(i64, ptr, i32)
; CHECK-LABEL: define linkonce_odr hidden ptr @__activetime_block_bias_slot() {{.*}}comdat($__activetime_block_counts)
; CHECK: ret ptr
; CHECK-LABEL: define linkonce_odr hidden void @__activetime_block_counts_ctor() {{.*}}comdat($__activetime_block_counts)
; CHECK: call void @__activetime_version_mismatch_check_v4()
; CHECK: call void @__activetime_register_block_counts(ptr @__activetime_block_counts)
; CHECK-LABEL: define linkonce_odr hidden void @__activetime_block_counts_dtor()
; CHECK: call void @__activetime_unregister_block_counts(ptr @__activetime_block_counts)
declare void @__llvm_profile_instrument_target(i64, ptr, i32)

!0 = !{}
