; Where the function probes go in the optimization pipeline.
;
; Default (after inlining, at OptimizerLast): square is inlined into sum and
; gets no probes; the census taken at the pipeline start names it in
; !activetime.inlined_away (and -activetime-print-decisions prints it).
; RUN: %opt_at -passes='default<O2>' -S %s | FileCheck %s --check-prefix=AFTER \
; RUN:   --implicit-check-not=@square
; RUN: %opt_at -passes='default<O2>' -activetime-print-decisions -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DECISIONS
;
; -activetime-before-inlining: the probes go in at the pipeline start, so the
; copy of square inlined into sum keeps its count and probes (with square's
; table entry); the run at OptimizerLast finds the module flag and does
; nothing: one table, one constructor, no function instrumented twice.
; RUN: %opt_at -passes='default<O2>' -activetime-before-inlining -S %s \
; RUN:   | FileCheck %s --check-prefix=BEFORE
; RUN: %opt_at -passes='default<O2>' -activetime-before-inlining %s | llc -O2 -filetype=null
;
; The probes' shape before inlining: the frame argument is a stack slot of
; the function's own (an inlined copy must not pass its caller's return
; address slot) holding the call site, the return address, for the entry
; probe to read; there is no timed copy (a musttail jump to it could not be
; inlined).
; RUN: %opt_at -passes=activetime -activetime-before-inlining -S %s \
; RUN:   | FileCheck %s --check-prefix=SHAPE --implicit-check-not=.activetime.timed
;
; Memory probes need the final loops: the combination is refused.
; RUN: not %opt_at -passes='default<O2>' -activetime-before-inlining -activetime-strides \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=STRIDES

; The census's inlined-away entries become a FuncDesc table with null
; addresses (ABI v4), at the end of the module descriptor.
; AFTER:      @__activetime_inlined_away = internal constant [1 x { ptr, ptr, ptr, i32, i32 }] [{ ptr, ptr, ptr, i32, i32 } { ptr null, ptr @__activetime_name{{[.0-9]*}}, ptr null, i32 0, i32 1 }]
; AFTER:      @__activetime_funcs = internal constant [2 x
; AFTER-NOT:  @__activetime_funcs.
; AFTER:      @__activetime_module = {{.*}}, ptr @__activetime_inlined_away, i32 1, i32 0 }
; AFTER:      @llvm.global_ctors = appending global [1 x
; AFTER:      define {{.*}}i32 @sum(
; AFTER:      call void @__activetime_func_enter(ptr {{.*}}@__activetime_funcs
; AFTER:      !activetime.inlined_away = !{![[SQ:[0-9]+]]}
; AFTER:      ![[SQ]] = !{!"square", !"", i32 0, i1 true}

; DECISIONS: activetime: instrument sum
; DECISIONS: activetime: instrument main
; DECISIONS: activetime: inlined away: square

; BEFORE:     @__activetime_funcs = internal constant [3 x
; BEFORE-NOT: @__activetime_funcs.
; BEFORE:     @llvm.global_ctors = appending global [1 x
; BEFORE:     define {{.*}}i32 @sum(
; The entry of sum (table entry 0), then square's (entry 1, 32 bytes on) in
; the loop, inlined. After inlining, sum's own probes pass its return
; address slot, which lies above every alloca of its frame (the inlined
; copies' slots among them): frames stay strictly decreasing with depth, so
; the runtime never takes sum's frame for one a longjmp abandoned. Its own
; call-site store is gone (the slot holds the return address itself).
; BEFORE:     [[RA:%[0-9a-z.]+]] = {{.*}}call ptr @llvm.addressofreturnaddress.p0()
; BEFORE-NOT: define
; BEFORE-NOT: store ptr {{.*}}@llvm.returnaddress
; BEFORE:     call void @__activetime_func_enter(ptr {{.*}}@__activetime_funcs, ptr {{.*}}[[RA]])
; BEFORE-NOT: define
; The copy of square inlined into sum stores "call site unknown" (0): the
; return address there is sum's, not the inlined call's.
; BEFORE:     store ptr null, ptr %activetime.frame.i
; BEFORE-NEXT: call void @__activetime_func_enter(ptr {{.*}}getelementptr inbounds (i8, ptr @__activetime_funcs, i64 32)
; BEFORE:     call void @__activetime_func_exit(ptr {{.*}}getelementptr inbounds (i8, ptr @__activetime_funcs, i64 32)
; BEFORE:     call void @__activetime_func_exit(ptr {{.*}}@__activetime_funcs, ptr {{.*}}[[RA]])
; BEFORE:     define internal i32 @square(
; BEFORE-NOT: !activetime.inlined_away

; SHAPE:      define dso_local i32 @sum({{.*}}
; SHAPE-NEXT: entry:
; SHAPE-NEXT:   %activetime.frame = alloca ptr
; SHAPE:        [[RA:%.*]] = call ptr @llvm.returnaddress(i32 0)
; SHAPE-NEXT:   store ptr [[RA]], ptr %activetime.frame, align 8, !activetime.callsite ![[OWN:[0-9]+]]
; SHAPE-NEXT:   call void @__activetime_func_enter(ptr @__activetime_funcs, ptr %activetime.frame)
; SHAPE:        call void @__activetime_func_exit(ptr @__activetime_funcs, ptr %activetime.frame)
; SHAPE:      define internal i32 @square({{.*}}
; SHAPE-NEXT: entry:
; SHAPE-NEXT:   %activetime.frame = alloca ptr

; SHAPE:      ![[OWN]] = !{ptr @sum}

; STRIDES: error: activetime: -activetime-before-inlining does not combine with stride profiling

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@.str = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define dso_local i32 @sum(i32 noundef %n) #0 {
entry:
  %n.addr = alloca i32, align 4
  %s = alloca i32, align 4
  %i = alloca i32, align 4
  store i32 %n, ptr %n.addr, align 4
  store i32 0, ptr %s, align 4
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:
  %0 = load i32, ptr %i, align 4
  %1 = load i32, ptr %n.addr, align 4
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.end

for.body:
  %2 = load i32, ptr %i, align 4
  %call = call i32 @square(i32 noundef %2)
  %3 = load i32, ptr %s, align 4
  %add = add nsw i32 %3, %call
  store i32 %add, ptr %s, align 4
  %4 = load i32, ptr %i, align 4
  %inc = add nsw i32 %4, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond

for.end:
  %5 = load i32, ptr %s, align 4
  ret i32 %5
}

define internal i32 @square(i32 noundef %x) #0 {
entry:
  %x.addr = alloca i32, align 4
  store i32 %x, ptr %x.addr, align 4
  %0 = load i32, ptr %x.addr, align 4
  %1 = load i32, ptr %x.addr, align 4
  %mul = mul nsw i32 %0, %1
  ret i32 %mul
}

define dso_local i32 @main() #0 {
entry:
  %call = call i32 @sum(i32 noundef 1000)
  %call1 = call i32 (ptr, ...) @printf(ptr noundef @.str, i32 noundef %call)
  ret i32 0
}

declare i32 @printf(ptr noundef, ...) #0

; C functions: clang says they do not unwind.
attributes #0 = { nounwind }
