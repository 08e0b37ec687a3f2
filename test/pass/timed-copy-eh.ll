; Exception handling in a timed copy and in a function instrumented in place
; (-activetime-clone-max-size=10: @small is copied, @big is not). Unwinding
; leaves through an exit probe: before the resume of the function's own
; cleanup, and in the cleanup pad the pass adds for calls that may throw
; (turned into invokes). In the copy every such probe is unconditional; in
; place each is conditional on the entry's count. The copied function itself
; keeps its body as it was: a counted call has no probe to run when an
; exception passes.
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=10 -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=10 %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=10 %s | llc -O2 -filetype=null
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=10 %s | llc -O0 -filetype=null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @may_throw()
declare void @dtor(ptr) nounwind
declare i32 @__gxx_personality_v0(...)

; 7 instructions.
define void @small() personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @small()
; CHECK:         %obj = alloca i32
; CHECK:         br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[JUMP]]:
; CHECK-NEXT:    musttail call void @small.activetime.timed()
; CHECK-NEXT:    ret void
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %cont unwind label %lpad
; CHECK:       cont:
; CHECK-NEXT:    call void @may_throw()
; CHECK-NEXT:    call void @dtor(ptr %obj)
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call void @dtor(ptr %obj)
; CHECK-NEXT:    resume { ptr, i32 } %lp
; CHECK-NEXT:  }
entry:
  %obj = alloca i32
  invoke void @may_throw() to label %cont unwind label %lpad
cont:
  call void @may_throw()
  call void @dtor(ptr %obj)
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @dtor(ptr %obj)
  resume { ptr, i32 } %lp
}

; 11 instructions.
define void @big(i32 %n) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @big(
; CHECK:         br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr getelementptr inbounds ([2 x { ptr, ptr, ptr, i32, i32 }], ptr @__activetime_funcs, i64 0, i64 1),
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK:         invoke void @may_throw()
; CHECK-NEXT:            to label %cont unwind label %lpad
; CHECK:       cont:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %[[NOEXC:.*]] unwind label %activetime.cleanup
; CHECK:       {{^}}[[NOEXC]]:
; CHECK-NEXT:    call void @dtor(ptr %obj)
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call void @dtor(ptr %obj)
; CHECK-NEXT:    br i1 %activetime.timed, label %[[UEXIT:[0-9]+]], label %[[RESUME:[0-9]+]]
; CHECK:       {{^}}[[UEXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RESUME]]
; CHECK:       {{^}}[[RESUME]]:
; CHECK-NEXT:    resume { ptr, i32 } %lp
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    br i1 %activetime.timed, label %[[CEXIT:[0-9]+]], label %[[CRESUME:[0-9]+]]
; CHECK:       {{^}}[[CEXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[CRESUME]]
; CHECK:       {{^}}[[CRESUME]]:
; CHECK-NEXT:    resume { ptr, i32 } %cleanup.lpad
; CHECK-NEXT:  }
entry:
  %obj = alloca i32
  %a = add i32 %n, 1
  %b = mul i32 %a, %a
  %c = xor i32 %b, %n
  store i32 %c, ptr %obj
  invoke void @may_throw() to label %cont unwind label %lpad
cont:
  call void @may_throw()
  call void @dtor(ptr %obj)
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @dtor(ptr %obj)
  resume { ptr, i32 } %lp
}

; CHECK-NOT:   @big.activetime.timed
; CHECK-LABEL: define internal void @small.activetime.timed() unnamed_addr #{{[0-9]+}} personality ptr @__gxx_personality_v0 {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %obj = alloca i32
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %cont unwind label %lpad
; CHECK:       cont:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %[[NOEXC:.*]] unwind label %activetime.cleanup
; CHECK:       {{^}}[[NOEXC]]:
; CHECK-NEXT:    call void @dtor(ptr %obj)
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]])
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call void @dtor(ptr %obj)
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]])
; CHECK-NEXT:    resume { ptr, i32 } %lp
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    [[F3:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F3]])
; CHECK-NEXT:    resume { ptr, i32 } %cleanup.lpad
; CHECK-NEXT:  }
