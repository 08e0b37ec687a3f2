; A function of at most -activetime-clone-max-size IR instructions (200;
; above 100 only with a short path to a return, timed-copy-size.ll) gets a
; timed copy, <name>.activetime.timed: internal, unnamed_addr, noinline, in
; the function's comdat, same calling convention and parameter attributes.
; The function itself counts the call and, when the count says timed,
; musttail-calls the copy, which has unconditional entry and exit probes;
; otherwise it runs its own body without any probe or exit check. A larger
; function is instrumented in place; -activetime-clone-max-size=0 copies
; nothing.
;
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefixes=CHECK,DEFAULT
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=4 -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,MAX4
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=NONE --implicit-check-not=.activetime.timed
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=4 %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -filetype=null
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | llc -O2 -filetype=null
;
; The backend keeps the jump to the copy a jump: a counted call of @four
; runs the count and its own body, with no call at all.
; RUN: %opt_at -passes=activetime %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

$inl = comdat any
%S = type { i64, i64, i64, i64 }

; Exactly 4 instructions: copied under -activetime-clone-max-size=4.
define i32 @four(i32 %x) nounwind {
; CHECK-LABEL: define i32 @four(i32 %x)
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 0
; CHECK-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; CHECK-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; CHECK-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; CHECK-NEXT:    br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       {{^}}[[JUMP]]:
; CHECK-NEXT:    [[R:%.*]] = musttail call i32 @four.activetime.timed(i32 %x)
; CHECK-NEXT:    ret i32 [[R]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    %a = add i32 %x, 1
; CHECK-NEXT:    %b = mul i32 %a, 3
; CHECK-NEXT:    %c = sub i32 %b, %x
; CHECK-NEXT:    ret i32 %c
; CHECK-NEXT:  }
; NONE-LABEL: define i32 @four(i32 %x)
; NONE:         br i1 %activetime.timed
; NONE:         call void @__activetime_func_enter(ptr @__activetime_funcs,
; NONE:         br i1 %activetime.timed
; NONE:         call void @__activetime_func_exit(ptr @__activetime_funcs,
; NONE:         ret i32 %c
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  %c = sub i32 %b, %x
  ret i32 %c
}

; 5 instructions: above -activetime-clone-max-size=4, instrumented in place.
define i32 @five(i32 %x) nounwind {
; CHECK-LABEL: define i32 @five(i32 %x)
; CHECK:         %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 1
; CHECK:         br i1 %activetime.timed, label %[[THEN:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[THEN]]:
; DEFAULT-NEXT:  musttail call i32 @five.activetime.timed(i32 %x)
; MAX4-NEXT:     [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; MAX4-NEXT:     call void @__activetime_func_enter(ptr getelementptr inbounds ([4 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[F]])
; MAX4-NEXT:     br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    %a = add i32 %x, 1
; MAX4:          %d = xor i32 %c, 7
; MAX4-NEXT:     br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]], !prof [[UNLIKELY]]
; MAX4:        {{^}}[[EXIT]]:
; MAX4-NEXT:     [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; MAX4-NEXT:     call void @__activetime_func_exit(ptr getelementptr inbounds ([4 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[F1]])
; MAX4-NEXT:     br label %[[RET]]
; MAX4:        {{^}}[[RET]]:
; MAX4-NEXT:     ret i32 %d
; CHECK:       }
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  %c = sub i32 %b, %x
  %d = xor i32 %c, 7
  ret i32 %d
}

; An inline function of another translation unit: the copy stays in its
; comdat (dropped with it), keeps fastcc, loses alwaysinline, and is internal
; with default visibility.
define linkonce_odr hidden fastcc i32 @inl(i32 %x) alwaysinline nounwind comdat {
; CHECK-LABEL: define linkonce_odr hidden fastcc i32 @inl(i32 %x) #{{[0-9]+}} comdat {
; CHECK:         [[R:%.*]] = musttail call fastcc i32 @inl.activetime.timed(i32 %x)
; CHECK-NEXT:    ret i32 [[R]]
  ret i32 %x
}

; The jump passes every argument with its attributes (sret, signext...), as
; musttail requires.
define void @sret_fn(ptr noalias sret(%S) align 8 %out, i32 signext %x) nounwind {
; CHECK-LABEL: define void @sret_fn(
; CHECK:         musttail call void @sret_fn.activetime.timed(ptr noalias sret(%S) align 8 %out, i32 signext %x)
; CHECK-NEXT:    ret void
; CHECK:         store i64 1, ptr %out
; CHECK-NEXT:    ret void
  store i64 1, ptr %out
  ret void
}

; The copies, in table order, after the functions.
; CHECK-LABEL: define internal i32 @four.activetime.timed(
; CHECK-SAME:    i32 %x) unnamed_addr #[[COPY:[0-9]+]] {
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    %a = add i32 %x, 1
; CHECK-NEXT:    %b = mul i32 %a, 3
; CHECK-NEXT:    %c = sub i32 %b, %x
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]])
; CHECK-NEXT:    ret i32 %c
; CHECK-NEXT:  }
; DEFAULT-LABEL: define internal i32 @five.activetime.timed(
; MAX4-NOT:      @five.activetime.timed
; CHECK-LABEL: define internal fastcc i32 @inl.activetime.timed(
; CHECK-SAME:    i32 %x) unnamed_addr #[[COPY]] comdat($inl) {
; CHECK-LABEL: define internal void @sret_fn.activetime.timed(
; CHECK-SAME:    ptr noalias sret(%S) align 8 %out, i32 signext %x) unnamed_addr #[[COPY]] {
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    store i64 1, ptr %out
; CHECK:         call void @__activetime_func_exit(
; CHECK-NEXT:    ret void

; The copies are noinline and never alwaysinline.
; CHECK: attributes #[[COPY]] = { noinline nounwind }
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}

; ASM-LABEL: four:
; ASM-NOT:     call
; ASM:         movq %fs:__activetime_module_counts@TPOFF, %rax
; ASM-NEXT:    incq (%rax)
; ASM-NOT:     call
; ASM:         j{{ns|mp}} four.activetime.timed # TAILCALL
; ASM-NOT:     call
; ASM:       .Lfunc_end0:
; ASM-LABEL: four.activetime.timed:
; ASM:         callq __activetime_func_enter
; ASM:         callq __activetime_func_exit
