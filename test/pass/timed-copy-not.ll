; Functions that must not get a timed copy are instrumented in place, however
; small: the count, then the entry probe and every exit probe conditional on
; it. A plain function of the same size next to them is copied.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --implicit-check-not=.activetime.timed
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -filetype=null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%S = type { i64, i64 }
@target = global ptr blockaddress(@blockaddr, %there)

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare i32 @callee(i32)
declare void @sink(ptr) nounwind
declare void @no_duplicate() nounwind

; The control: copied.
define i32 @plain(i32 %x) nounwind {
; CHECK-LABEL: define i32 @plain(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK:         musttail call i32 @plain.activetime.timed(i32 %x)
; CHECK-NOT:     call void @__activetime_func_
; CHECK:       }
  ret i32 %x
}

; Varargs: a musttail call cannot forward the variable arguments.
define i32 @varargs(i32 %n, ...) nounwind {
; CHECK-LABEL: define i32 @varargs(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret i32 %n
}

; A byval argument is a copy in the caller's frame: the jump would have to
; copy it again.
define i64 @byval(ptr byval(%S) align 8 %s) nounwind {
; CHECK-LABEL: define i64 @byval(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  %v = load i64, ptr %s
  ret i64 %v
}

; A swifterror argument.
define void @swifterror(ptr swifterror %err) nounwind {
; CHECK-LABEL: define void @swifterror(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  store ptr null, ptr %err
  ret void
}

; An inalloca argument.
define void @inalloca(ptr inalloca(%S) %s) nounwind {
; CHECK-LABEL: define void @inalloca(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  call void @sink(ptr %s)
  ret void
}

; A musttail call inside: the function keeps it, and its exit check goes
; right before it.
define i32 @has_musttail(i32 %x) nounwind {
; CHECK-LABEL: define i32 @has_musttail(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:    %r = musttail call i32 @callee(i32 %x)
; CHECK-NEXT:    ret i32 %r
; CHECK:       }
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}

; A block whose address is taken (@target): the address names a block of this
; function, which a copy could not honour.
define i32 @blockaddr(i32 %x) nounwind {
; CHECK-LABEL: define i32 @blockaddr(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  %c = icmp eq i32 %x, 0
  br i1 %c, label %here, label %there
here:
  ret i32 1
there:
  ret i32 2
}

; A callbr (asm goto).
define i32 @callbr(i32 %x) nounwind {
; CHECK-LABEL: define i32 @callbr(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  callbr void asm "", "!i"() to label %fall [label %indirect]
fall:
  ret i32 0
indirect:
  ret i32 1
}

; A call that must not be duplicated.
define void @nodup() nounwind {
; CHECK-LABEL: define void @nodup(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  call void @no_duplicate() noduplicate
  ret void
}

; A function that returns twice.
define i32 @returns_twice() nounwind returns_twice {
; CHECK-LABEL: define i32 @returns_twice(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  ret i32 0
}

; A calling convention other than C, fast or cold.
define preserve_mostcc i32 @other_cc(i32 %x) nounwind {
; CHECK-LABEL: define preserve_mostcc i32 @other_cc(
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:         br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK:       }
  ret i32 %x
}

; CHECK-LABEL: define internal i32 @plain.activetime.timed(
; CHECK:         call void @__activetime_func_enter(
