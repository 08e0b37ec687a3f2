; Exits before tail calls: when a ret returns the result of the call right
; before it (or a void call comes right before `ret void`) and that call is
; marked tail, the exit check goes before the call, so the backend still
; turns it into a jump (the callee then runs outside the caller's timed
; frame, as it does on the uninstrumented stack). Any other call before a ret
; (not marked tail, marked notail, result not returned, an intrinsic) gets
; the exit after it.
;
; In place: the exit check is conditional on the entry's count.
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 -S %s | FileCheck %s --check-prefix=INPLACE
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | llc -O2 -filetype=null
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | llc -O2 -o - \
; RUN:   | FileCheck %s --check-prefix=INPLACE-ASM
;
; With timed copies: the function keeps its tail call untouched; the copy
; runs its exit probe unconditionally before it.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefix=COPY
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -filetype=null
; RUN: %opt_at -passes=activetime %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i32 @g(i32) nounwind
declare void @h(i32) nounwind
declare void @llvm.donothing() nounwind

define i32 @tail_ret(i32 %x) nounwind {
; INPLACE-LABEL: define i32 @tail_ret(
; INPLACE:         %y = add i32 %x, 1
; INPLACE-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[CALL:[0-9]+]]
; INPLACE:       {{^}}[[EXIT]]:
; INPLACE-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; INPLACE-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs,
; INPLACE-NEXT:    br label %[[CALL]]
; INPLACE:       {{^}}[[CALL]]:
; INPLACE-NEXT:    %r = tail call i32 @g(i32 %y)
; INPLACE-NEXT:    ret i32 %r
; INPLACE-NEXT:  }
; COPY-LABEL: define i32 @tail_ret(
; COPY:         musttail call i32 @tail_ret.activetime.timed(i32 %x)
; COPY:         %y = add i32 %x, 1
; COPY-NEXT:    %r = tail call i32 @g(i32 %y)
; COPY-NEXT:    ret i32 %r
; COPY-NEXT:  }
  %y = add i32 %x, 1
  %r = tail call i32 @g(i32 %y)
  ret i32 %r
}

define i32 @nontail_ret(i32 %x) nounwind {
; INPLACE-LABEL: define i32 @nontail_ret(
; INPLACE:         %r = call i32 @g(i32 %x)
; INPLACE-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; INPLACE:       {{^}}[[EXIT]]:
; INPLACE-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; INPLACE-NEXT:    call void @__activetime_func_exit(
; INPLACE-NEXT:    br label %[[RET]]
; INPLACE:       {{^}}[[RET]]:
; INPLACE-NEXT:    ret i32 %r
  %r = call i32 @g(i32 %x)
  ret i32 %r
}

define void @tail_void(i32 %x) nounwind {
; INPLACE-LABEL: define void @tail_void(
; INPLACE:         br label %[[BODY:[0-9]+]]
; INPLACE:       {{^}}[[BODY]]:
; INPLACE-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[CALL:[0-9]+]]
; INPLACE:       {{^}}[[EXIT]]:
; INPLACE-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; INPLACE-NEXT:    call void @__activetime_func_exit(
; INPLACE-NEXT:    br label %[[CALL]]
; INPLACE:       {{^}}[[CALL]]:
; INPLACE-NEXT:    tail call void @h(i32 %x)
; INPLACE-NEXT:    ret void
; INPLACE-NEXT:  }
  tail call void @h(i32 %x)
  ret void
}

; The result is not what the function returns: not a tail call in effect.
define i32 @tail_unused(i32 %x) nounwind {
; INPLACE-LABEL: define i32 @tail_unused(
; INPLACE:         %r = tail call i32 @g(i32 %x)
; INPLACE-NEXT:    br i1 %activetime.timed
; INPLACE:         call void @__activetime_func_exit(
; INPLACE:         ret i32 0
  %r = tail call i32 @g(i32 %x)
  ret i32 0
}

define i32 @notail_ret(i32 %x) nounwind {
; INPLACE-LABEL: define i32 @notail_ret(
; INPLACE:         %r = notail call i32 @g(i32 %x)
; INPLACE-NEXT:    br i1 %activetime.timed
; INPLACE:         call void @__activetime_func_exit(
; INPLACE:         ret i32 %r
  %r = notail call i32 @g(i32 %x)
  ret i32 %r
}

define void @tail_intrinsic() nounwind {
; INPLACE-LABEL: define void @tail_intrinsic(
; INPLACE:         tail call void @llvm.donothing()
; INPLACE-NEXT:    br i1 %activetime.timed
; INPLACE:         call void @__activetime_func_exit(
; INPLACE:         ret void
  tail call void @llvm.donothing()
  ret void
}

; A function that may unwind, calling a callee that does not: the tail call
; stays a call (no invoke) after the exit check.
define i32 @may_unwind(i32 %x) {
; INPLACE-LABEL: define i32 @may_unwind(
; INPLACE-NOT:     landingpad
; INPLACE:         call void @__activetime_func_enter(
; INPLACE-NEXT:    br label %[[BODY:[0-9]+]]
; INPLACE:       {{^}}[[BODY]]:
; INPLACE-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[CALL:[0-9]+]]
; INPLACE:       {{^}}[[EXIT]]:
; INPLACE-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; INPLACE-NEXT:    call void @__activetime_func_exit(
; INPLACE-NEXT:    br label %[[CALL]]
; INPLACE:       {{^}}[[CALL]]:
; INPLACE-NEXT:    %r = tail call i32 @g(i32 %x)
; INPLACE-NEXT:    ret i32 %r
; INPLACE-NEXT:  }
  %r = tail call i32 @g(i32 %x)
  ret i32 %r
}

; The copies.
; COPY-LABEL: define internal i32 @tail_ret.activetime.timed(
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs,
; COPY-NEXT:    %y = add i32 %x, 1
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs,
; COPY-NEXT:    %r = tail call i32 @g(i32 %y)
; COPY-NEXT:    ret i32 %r
; COPY-NEXT:  }
; COPY-LABEL: define internal i32 @nontail_ret.activetime.timed(
; COPY:         call void @__activetime_func_enter(
; COPY-NEXT:    %r = call i32 @g(i32 %x)
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    ret i32 %r
; COPY-NEXT:  }
; COPY-LABEL: define internal void @tail_void.activetime.timed(
; COPY:         call void @__activetime_func_enter(
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    tail call void @h(i32 %x)
; COPY-NEXT:    ret void
; COPY-NEXT:  }
; COPY-LABEL: define internal i32 @tail_unused.activetime.timed(
; COPY:         %r = tail call i32 @g(i32 %x)
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    ret i32 0
; COPY-LABEL: define internal i32 @notail_ret.activetime.timed(
; COPY:         %r = notail call i32 @g(i32 %x)
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    ret i32 %r
; COPY-LABEL: define internal void @tail_intrinsic.activetime.timed(
; COPY:         tail call void @llvm.donothing()
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    ret void
; COPY-LABEL: define internal i32 @may_unwind.activetime.timed(
; COPY-NOT:     landingpad
; COPY:         call void @__activetime_func_exit(
; COPY-NEXT:    %r = tail call i32 @g(i32 %x)
; COPY-NEXT:    ret i32 %r
; COPY-NEXT:  }

; In the backend: the counted path of @tail_ret is the count and a jump to
; @g, without any call; so is the end of its copy, after the exit probe.
; ASM-LABEL: tail_ret:
; ASM-NOT:     call
; ASM:         incq (%rax)
; ASM-NOT:     call
; ASM-DAG:     jmp g{{(@PLT)?}} # TAILCALL
; ASM-DAG:     j{{ns|mp}} tail_ret.activetime.timed # TAILCALL
; ASM-NOT:     call
; ASM:       .Lfunc_end0:
; ASM-LABEL: tail_void:
; ASM-NOT:     call
; ASM:         j{{s|mp}} h{{(@PLT)?}} # TAILCALL
; ASM-NOT:     call
; ASM:       .Lfunc_end2:
; ASM-LABEL: tail_ret.activetime.timed:
; ASM:         callq __activetime_func_enter
; ASM:         callq __activetime_func_exit
; ASM-NOT:     call
; ASM:         jmp g{{(@PLT)?}} # TAILCALL
; ASM-LABEL: tail_void.activetime.timed:
; ASM:         callq __activetime_func_exit
; ASM-NOT:     call
; ASM:         jmp h{{(@PLT)?}} # TAILCALL
;
; In place: after the (conditional) exit probe, the call is still a jump.
; INPLACE-ASM-LABEL: tail_ret:
; INPLACE-ASM-NOT:     callq g
; INPLACE-ASM:         jmp g{{(@PLT)?}} # TAILCALL
; INPLACE-ASM-NOT:     callq g
; INPLACE-ASM:       .Lfunc_end0:
; INPLACE-ASM-LABEL: tail_void:
; INPLACE-ASM-NOT:     callq h
; INPLACE-ASM:         jmp h{{(@PLT)?}} # TAILCALL
; INPLACE-ASM-NOT:     callq h
; INPLACE-ASM:       .Lfunc_end2:
