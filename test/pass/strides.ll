; Stride profiling sites: affine accesses get a static stride in
; the site table and no probe; indirect and pointer-chasing accesses get a
; probe; loop-invariant and stack addresses get neither.
; RUN: %opt_at -passes=activetime -activetime-strides -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-mem=loops -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-strides %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: %opt_at -passes=activetime -activetime-mem=all -S %s | FileCheck %s --check-prefix=ALL
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefix=NONE
; RUN: %opt_at -passes=activetime -activetime-strides -activetime-mem=none -S %s | FileCheck %s --check-prefix=NONE

; Site table: { func, file, line, column, hash, static stride, size, flags,
; loop line, loop depth, copy group, previous copy, copy offset, lead
; offset, probe lead }. Flags: 1 store, 2 static, 4 in a loop.
; CHECK: @__activetime_sites = internal constant [8 x { ptr, ptr, i32, i32, i64, i64, i32, i32, i32, i32, i32, i32, i64, i64, i32 }]
; affine: a[i].v, 16-byte elements: static stride 16, load, in a loop.
; CHECK-SAME: { ptr @[[AFF:__activetime_name[.0-9]*]], ptr null, i32 0, i32 0, i64 {{-?[0-9]+}}, i64 16, i32 8, i32 6, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
; indirect: idx[i] static 4; a[idx[i]] load and store dynamic, the store
; measured by the load's probe (probe lead 1 + 2, offset 0: same address,
; same block).
; CHECK-SAME: { ptr @[[IND:__activetime_name[.0-9]*]], ptr null, i32 0, i32 0, i64 {{-?[0-9]+}}, i64 4, i32 4, i32 6, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
; CHECK-SAME: { ptr @[[IND]], ptr null, i32 0, i32 0, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
; CHECK-SAME: { ptr @[[IND]], ptr null, i32 0, i32 0, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 5, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 3 }
; chase: p->v and p->next, both dynamic; p->next is always 8 bytes below
; p->v, later in the block: measured by its probe (lead 1 + 4, offset -8).
; CHECK-SAME: { ptr @[[CH:__activetime_name[.0-9]*]], ptr null, i32 0, i32 0, i64 4739384317480274729, i64 0, i32 8, i32 4, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
; CHECK-SAME: { ptr @[[CH]], ptr null, i32 0, i32 0, i64 -7889223789603297062, i64 0, i32 8, i32 4, i32 0, i32 1, i32 0, i32 0, i64 0, i64 -8, i32 5 }
; guarded: the same two loads with a call between them that may not
; return: each has its own probe.
; CHECK-SAME: { ptr @[[GU:__activetime_name[.0-9]*]], ptr null, i32 0, i32 0, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }
; CHECK-SAME: { ptr @[[GU]], ptr null, i32 0, i32 0, i64 {{-?[0-9]+}}, i64 0, i32 8, i32 4, i32 0, i32 1, i32 0, i32 0, i64 0, i64 0, i32 0 }]
; CHECK: @__activetime_module = internal global { i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 } { i32 7, i32 6, ptr @__activetime_funcs, ptr @__activetime_module_name, i64 {{-?[0-9]+}}, ptr null, i32 8, i32 0, ptr @__activetime_sites, i32 0, i32 0, ptr null, ptr @__activetime_bootstrap_counts, ptr null, i32 0, i32 0 }
; CHECK: @__activetime_countdown = internal thread_local global [8 x i32] zeroinitializer

; NONE-NOT: __activetime_sites
; NONE-NOT: __activetime_mem_access
; NONE: @__activetime_module = internal global {{.*}} ptr null, i32 0, i32 0, ptr null, i32 0, i32 0, ptr null, ptr @__activetime_bootstrap_counts, ptr null, i32 0, i32 0 }

; ALL: @__activetime_sites = internal constant [9 x
; ALL: define i64 @straight(
; ALL: call void @__activetime_mem_access(ptr @__activetime_module, i32 8, ptr %p, ptr {{%.*}})
; ALL: load i64, ptr %p

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.N = type { ptr, i64 }
; CHECK-LABEL: define i64 @affine(
; CHECK-NOT: __activetime_mem_access
; CHECK: ret i64
define i64 @affine(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds %struct.N, ptr %a, i64 %i, i32 1
  %v = load i64, ptr %p
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i64 %s.next
}

; CHECK-LABEL: define i64 @indirect(
; CHECK: %k = load i32, ptr %ip
; CHECK-NOT: __activetime_mem_access
; CHECK: %ap = getelementptr
; The inline fast path: decrement the thread's countdown of site 2, call the
; probe when it drops below zero.
; CHECK-NEXT: [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_countdown)
; CHECK-NEXT: [[SLOT:%.*]] = getelementptr inbounds [8 x i32], ptr [[TLS]], i32 0, i32 2
; CHECK-NEXT: [[OLD:%.*]] = load i32, ptr [[SLOT]]
; CHECK-NEXT: [[NEW:%.*]] = sub i32 [[OLD]], 1
; CHECK-NEXT: store i32 [[NEW]], ptr [[SLOT]]
; CHECK-NEXT: [[DUE:%.*]] = icmp slt i32 [[NEW]], 0
; CHECK-NEXT: br i1 [[DUE]], label %[[SLOW:.*]], label %[[CONT:.*]], !prof [[UNLIKELY:![0-9]+]]
; The slow path computes the slot's address again: the fast path then needs
; the thread pointer only as an %fs-relative operand, never in a register.
; CHECK: [[SLOW]]:
; CHECK-NEXT: [[TLS2:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_countdown)
; CHECK-NEXT: [[SLOT2:%.*]] = getelementptr inbounds [8 x i32], ptr [[TLS2]], i32 0, i32 2
; CHECK-NEXT: call void @__activetime_mem_access(ptr @__activetime_module, i32 2, ptr %ap, ptr [[SLOT2]]) [[NOUNWIND:#[0-9]+]]
; CHECK-NEXT: br label %[[CONT]]
; CHECK: [[CONT]]:
; CHECK-NEXT: %v = load i64, ptr %ap
; The store to the same address: no probe of its own (its lead's).
; CHECK-NOT: __activetime_countdown
; CHECK-NEXT: store i64 0, ptr %ap
; In the loop, a site's fast path is a decrement of an %fs-relative slot
; and a jump on its sign: no register. The thread pointer itself is read
; only on the slow path (the call's argument).
; ASM-LABEL: indirect:
; ASM:       # %loop
; ASM-NOT:   %fs:0,
; ASM:       decl %fs:__activetime_countdown@TPOFF+8
; ASM-NEXT:  js [[SLOW:.LBB[0-9_]+]]
; ASM-NOT:   %fs:0,
; ASM:       [[SLOW]]:
; ASM-NEXT:  movq %fs:0, [[TP:%r[a-z0-9]+]]
; ASM-NEXT:  leaq __activetime_countdown@TPOFF+8([[TP]]),
define i64 @indirect(ptr %a, ptr %idx, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %ip = getelementptr inbounds i32, ptr %idx, i64 %i
  %k = load i32, ptr %ip
  %k64 = sext i32 %k to i64
  %ap = getelementptr inbounds i64, ptr %a, i64 %k64
  %v = load i64, ptr %ap
  store i64 0, ptr %ap
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i64 %s.next
}

; CHECK-LABEL: define i64 @invariant(
; CHECK-NOT: __activetime_mem_access
; CHECK: ret i64
define i64 @invariant(ptr %p, i64 %n) {
entry:
  %buf = alloca i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %v = load i64, ptr %p
  store i64 %i, ptr %buf
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i64 %s.next
}

; CHECK-LABEL: define i64 @chase(
; CHECK: call void @__activetime_mem_access(ptr @__activetime_module, i32 4, ptr %vp, ptr {{%.*}})
; CHECK: %v = load i64, ptr %vp
; CHECK-NOT: __activetime_countdown
; CHECK: %next = load ptr, ptr %p
define i64 @chase(ptr %head) {
entry:
  %e = icmp eq ptr %head, null
  br i1 %e, label %exit, label %loop
loop:
  %p = phi ptr [ %head, %entry ], [ %next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %vp = getelementptr inbounds %struct.N, ptr %p, i64 0, i32 1
  %v = load i64, ptr %vp
  %next = load ptr, ptr %p
  %s.next = add i64 %s, %v
  %done = icmp eq ptr %next, null
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  ret i64 %r
}

; CHECK-LABEL: define i64 @guarded(
; CHECK: call void @__activetime_mem_access(ptr @__activetime_module, i32 6, ptr %vp, ptr {{%.*}})
; CHECK: call void @mayexit()
; CHECK: call void @__activetime_mem_access(ptr @__activetime_module, i32 7, ptr %p, ptr {{%.*}})
; CHECK: %next = load ptr, ptr %p
declare void @mayexit()
define i64 @guarded(ptr %head) {
entry:
  %e = icmp eq ptr %head, null
  br i1 %e, label %exit, label %loop
loop:
  %p = phi ptr [ %head, %entry ], [ %next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %vp = getelementptr inbounds %struct.N, ptr %p, i64 0, i32 1
  %v = load i64, ptr %vp
  call void @mayexit()
  %next = load ptr, ptr %p
  %s.next = add i64 %s, %v
  %done = icmp eq ptr %next, null
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  ret i64 %r
}

; Outside any loop: a site only with -activetime-mem=all.
; CHECK-LABEL: define i64 @straight(
; CHECK-NOT: __activetime_mem_access
; CHECK: ret i64
define i64 @straight(ptr %p) {
  %v = load i64, ptr %p
  ret i64 %v
}

; CHECK: declare void @__activetime_mem_access(ptr, i32, ptr, ptr) [[NOUNWIND]]

; The probes are in place before the timed copy is made: the copy has the
; same sites (same indices), counted and timed calls both feed them.
; CHECK-LABEL: define internal i64 @indirect.activetime.timed(
; CHECK: call void @__activetime_mem_access(ptr @__activetime_module, i32 2, ptr %ap, ptr {{%.*}})
; CHECK-NOT: call void @__activetime_mem_access(ptr @__activetime_module, i32 3,
; CHECK: attributes [[NOUNWIND]] = { nounwind }
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
