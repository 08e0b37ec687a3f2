; The entry goes after the leading static allocas and every ret gets an exit;
; the descriptor argument is the function's element of the table and the
; counter its element of the thread's counter array.
;
; In place (-activetime-clone-max-size=0): the count (its memory accesses
; marked !nosanitize), then the entry probe
; and every exit probe only when the count says the call is timed.
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | %opt -passes=verify -disable-output
;
; With a timed copy (the default for small functions): the function keeps its
; body and only counts; a timed call jumps to the copy, whose probes are
; unconditional.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefix=COPY
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @use(ptr) nounwind

define i32 @first(i32 %x) nounwind {
; CHECK-LABEL: define i32 @first(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = alloca i32
; CHECK-NEXT:    %b = alloca [4 x i32]
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8, !nosanitize [[NOSAN:![0-9]+]]
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 0
; CHECK-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8, !nosanitize [[NOSAN]]
; CHECK-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8, !nosanitize [[NOSAN]]
; CHECK-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]]) #[[NOUNWIND:[0-9]+]]
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    call void @use(ptr %a)
; CHECK-NEXT:    %dyn = alloca i32, i32 %x
;
; COPY-LABEL: define i32 @first(
; COPY-NEXT:  entry:
; COPY-NEXT:    %a = alloca i32
; COPY-NEXT:    %b = alloca [4 x i32]
; COPY-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; COPY-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; COPY-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 0
; COPY-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; COPY-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; COPY-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; COPY-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; COPY-NEXT:    br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; COPY:       {{^}}[[JUMP]]:
; COPY-NEXT:    [[R:%.*]] = musttail call i32 @first.activetime.timed(i32 %x)
; COPY-NEXT:    ret i32 [[R]]
; COPY:       {{^}}[[BODY]]:
; COPY-NEXT:    call void @use(ptr %a)
; COPY-NEXT:    %dyn = alloca i32, i32 %x
; COPY-NEXT:    call void @use(ptr %dyn)
; COPY-NEXT:    %c = icmp slt i32 %x, 0
; COPY-NEXT:    br i1 %c, label %neg, label %next
; COPY:       neg:
; COPY-NEXT:    ret i32 -1
; COPY:       next:
; COPY-NEXT:    %z = icmp eq i32 %x, 0
; COPY-NEXT:    br i1 %z, label %zero, label %pos
; COPY:       zero:
; COPY-NEXT:    ret i32 0
; COPY:       pos:
; COPY-NEXT:    ret i32 1
; COPY-NEXT:  }
entry:
  %a = alloca i32
  %b = alloca [4 x i32]
  call void @use(ptr %a)
  %dyn = alloca i32, i32 %x
  call void @use(ptr %dyn)
  %c = icmp slt i32 %x, 0
  br i1 %c, label %neg, label %next
; CHECK:       neg:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT1:[0-9]+]], label %[[RET1:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[EXIT1]]:
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]]) #[[NOUNWIND]]
; CHECK-NEXT:    br label %[[RET1]]
; CHECK:       {{^}}[[RET1]]:
; CHECK-NEXT:    ret i32 -1
neg:
  ret i32 -1
; CHECK:       next:
; CHECK-NEXT:    %z = icmp eq i32 %x, 0
; CHECK-NEXT:    br i1 %z, label %zero, label %pos
next:
  %z = icmp eq i32 %x, 0
  br i1 %z, label %zero, label %pos
; CHECK:       zero:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT2:[0-9]+]], label %[[RET2:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[EXIT2]]:
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]]) #[[NOUNWIND]]
; CHECK-NEXT:    br label %[[RET2]]
; CHECK:       {{^}}[[RET2]]:
; CHECK-NEXT:    ret i32 0
zero:
  ret i32 0
; CHECK:       pos:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT3:[0-9]+]], label %[[RET3:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[EXIT3]]:
; CHECK-NEXT:    [[F3:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F3]]) #[[NOUNWIND]]
; CHECK-NEXT:    br label %[[RET3]]
; CHECK:       {{^}}[[RET3]]:
; CHECK-NEXT:    ret i32 1
; CHECK-NEXT:  }
pos:
  ret i32 1
}
; CHECK-NOT:   call void @__activetime_func_exit

; A second function uses the second element of the table and the second
; counter.
define void @second() nounwind {
; CHECK-LABEL: define void @second(
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; CHECK-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 1
; CHECK-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; CHECK-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; CHECK-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; CHECK-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    [[G:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[G]])
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    [[G1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[G1]])
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
;
; COPY-LABEL: define void @second(
; COPY-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; COPY-NEXT:    %activetime.counts = load ptr, ptr [[TLS]], align 8
; COPY-NEXT:    %activetime.counter = getelementptr inbounds i64, ptr %activetime.counts, i64 1
; COPY-NEXT:    [[OLD:%.*]] = load i64, ptr %activetime.counter, align 8
; COPY-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; COPY-NEXT:    store i64 [[NEW]], ptr %activetime.counter, align 8
; COPY-NEXT:    %activetime.timed = icmp sge i64 [[NEW]], 0
; COPY-NEXT:    br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]], !prof [[UNLIKELY]]
; COPY:       {{^}}[[JUMP]]:
; COPY-NEXT:    musttail call void @second.activetime.timed()
; COPY-NEXT:    ret void
; COPY:       {{^}}[[BODY]]:
; COPY-NEXT:    ret void
; COPY-NEXT:  }
  ret void
}

; CHECK: declare void @__activetime_func_enter(ptr, ptr) #[[NOUNWIND]]
; CHECK: declare void @__activetime_func_exit(ptr, ptr) #[[NOUNWIND]]
; COPY: declare void @__activetime_func_enter(ptr, ptr) #[[NOUNWIND:[0-9]+]]
; COPY: declare void @__activetime_func_exit(ptr, ptr) #[[NOUNWIND]]

; The copies: internal, out of line, same body with unconditional probes.
; COPY-LABEL: define internal i32 @first.activetime.timed(
; COPY-SAME:    i32 %x) unnamed_addr #[[COPYATTRS:[0-9]+]] {
; COPY-NEXT:  entry:
; COPY-NEXT:    %a = alloca i32
; COPY-NEXT:    %b = alloca [4 x i32]
; COPY-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]]) #[[NOUNWIND]]
; COPY-NEXT:    call void @use(ptr %a)
; COPY-NEXT:    %dyn = alloca i32, i32 %x
; COPY:       neg:
; COPY-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]]) #[[NOUNWIND]]
; COPY-NEXT:    ret i32 -1
; COPY:       zero:
; COPY-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]]) #[[NOUNWIND]]
; COPY-NEXT:    ret i32 0
; COPY:       pos:
; COPY-NEXT:    [[F3:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F3]]) #[[NOUNWIND]]
; COPY-NEXT:    ret i32 1
; COPY-NEXT:  }
; COPY-LABEL: define internal void @second.activetime.timed(
; COPY-SAME:    ) unnamed_addr #[[COPYATTRS]] {
; COPY-NEXT:    [[G:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_enter(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[G]])
; COPY-NEXT:    [[G1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1), ptr [[G1]])
; COPY-NEXT:    ret void
; COPY-NEXT:  }

; CHECK: attributes #[[NOUNWIND]] = { nounwind }
; COPY: attributes #[[NOUNWIND]] = { nounwind }
; COPY: attributes #[[COPYATTRS]] = { noinline nounwind }
; The counters are not for sanitizers (a later TSan pass) to instrument.
; CHECK: [[NOSAN]] = !{}
; The timed branch is the unlikely one: most calls end up only counted.
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
; COPY: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
