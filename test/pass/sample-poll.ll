; The sample poll (abi.h), with -activetime-sample-poll: every entry first
; compares the thread's code-sample ring head with the head it has seen
; (the first two words of the runtime's thread-local __activetime_thread,
; initial-exec, loads !nosanitize) and calls the preserve_most slow path
; when they differ, before the count. In place, the slow path rejoins the
; entry; a function with a timed copy jumps back to its own start instead,
; so a leaf's fast path sets up no frame (the push is the slow path's).
; The module descriptor says so (Flags: MDF_SamplePoll, 2); without the
; option there is no check and the flag is clear.
; RUN: %opt_at -passes=activetime -activetime-sample-poll -activetime-clone-max-size=0 -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-sample-poll -S %s | FileCheck %s --check-prefix=COPY
; RUN: %opt_at -passes=activetime -activetime-sample-poll %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-sample-poll %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @__activetime_module = internal global {{.*}} { i32 7, i32 2, ptr @__activetime_funcs, ptr @__activetime_module_name, i64 {{-?[0-9]+}}, ptr null, i32 0, i32 0, ptr null, i32 0, i32 2,
; OFF: @__activetime_module = internal global {{.*}} { i32 7, i32 2, ptr @__activetime_funcs, ptr @__activetime_module_name, i64 {{-?[0-9]+}}, ptr null, i32 0, i32 0, ptr null, i32 0, i32 0,
; OFF-NOT: __activetime_sample_poll
; OFF-NOT: __activetime_thread

declare void @use(ptr) nounwind

define i32 @first(i32 %x) nounwind {
; CHECK-LABEL: define i32 @first(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    [[POLL:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_thread)
; CHECK-NEXT:    %activetime.poll.head = load ptr, ptr [[POLL]], align 8, !nosanitize [[NOSAN:![0-9]+]]
; CHECK-NEXT:    [[HEAD:%.*]] = load volatile i64, ptr %activetime.poll.head, align 8, !nosanitize [[NOSAN]]
; CHECK-NEXT:    [[SEENP:%.*]] = getelementptr inbounds i8, ptr [[POLL]], i64 8
; CHECK-NEXT:    %activetime.poll.seen = load i64, ptr [[SEENP]], align 8, !nosanitize [[NOSAN]]
; CHECK-NEXT:    %activetime.poll = icmp ne i64 [[HEAD]], %activetime.poll.seen
; CHECK-NEXT:    br i1 %activetime.poll, label %[[DRAIN:[0-9]+]], label %[[COUNT:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       {{^}}[[DRAIN]]:
; CHECK-NEXT:    call preserve_mostcc void @__activetime_sample_poll() #[[NOUNWIND:[0-9]+]]
; CHECK-NEXT:    br label %[[COUNT]]
; CHECK:       {{^}}[[COUNT]]:
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8, !nosanitize [[NOSAN]]
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
;
; COPY-LABEL: define i32 @first(
; COPY-NEXT:  entry:
; COPY-NEXT:    %a = alloca i32
; COPY-NEXT:    [[POLL:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_thread)
; COPY:         %activetime.poll = icmp ne i64
; COPY-NEXT:    br i1 %activetime.poll, label %[[DRAIN:[0-9]+]], label %[[COUNT:[0-9]+]]
; COPY:       {{^}}[[DRAIN]]:
; COPY-NEXT:    call preserve_mostcc void @__activetime_sample_poll()
; COPY-NEXT:    [[AGAIN:%.*]] = musttail call i32 @first(i32 %x)
; COPY-NEXT:    ret i32 [[AGAIN]]
; COPY:       {{^}}[[COUNT]]:
; COPY-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; COPY:         musttail call i32 @first.activetime.timed(i32 %x)
entry:
  %a = alloca i32
  call void @use(ptr %a)
  ret i32 %x
}

; ASM-LABEL: leaf:
; ASM-NOT:     {{push|call}}
; ASM:         movq __activetime_thread@GOTTPOFF(%rip), [[T:%r[a-z0-9]+]]
; ASM-NEXT:    movq %fs:([[T]]), [[H:%r[a-z0-9]+]]
; ASM-NEXT:    movq ([[H]]), [[H]]
; ASM-NEXT:    cmpq %fs:8([[T]]), [[H]]
; ASM-NEXT:    jne [[DRAIN:.LBB[0-9_]+]]
; ASM-NOT:     {{push|call}}
; ASM:         movq %fs:__activetime_module_counts@TPOFF, [[P:%r[a-z0-9]+]]
; ASM-NEXT:    incq 8([[P]])
; ASM-NEXT:    jns leaf.activetime.timed # TAILCALL
; ASM-NOT:     {{push|call}}
; ASM:         retq
; ASM-NEXT:  [[DRAIN]]:
; ASM-NEXT:    pushq
; ASM-NEXT:    callq __activetime_sample_poll{{(@PLT)?}}
; ASM-NEXT:    popq
; ASM-NEXT:    jmp leaf{{(@PLT)?}} # TAILCALL
; ASM-NEXT:  .Lfunc_end1:
define i32 @leaf(i32 %x) nounwind {
  %r = add i32 %x, 1
  ret i32 %r
}

; CHECK: attributes #[[NOUNWIND]] = { nounwind }
; CHECK: [[NOSAN]] = !{}
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
