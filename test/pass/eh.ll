; Unwinding leaves through an exit probe: calls that may throw become invokes
; into a cleanup pad that runs the probe and resumes, and existing resumes get
; the probe too. Nounwind calls, nounwind functions and
; -activetime-handle-exceptions=false get no cleanup.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-handle-exceptions=false -S %s \
; RUN:   | FileCheck %s --check-prefix=NOEH

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @may_throw()
declare void @wont_throw() nounwind
declare void @handle(ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)

; A plain call that may throw: converted to an invoke unwinding to our pad.
define void @calls(i32 %x) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @calls(
; CHECK:         call void @__activetime_func_enter(
; CHECK-NEXT:    call void @wont_throw()
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %[[CONT:.*]] unwind label %activetime.cleanup
; CHECK:       [[CONT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    ret void
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    resume { ptr, i32 } %cleanup.lpad
; CHECK-NEXT:  }
  call void @wont_throw()
  call void @may_throw()
  ret void
}

; NOEH-LABEL: define void @calls(
; NOEH-NOT:     invoke
; NOEH-NOT:     landingpad
; NOEH:       }

; C++ try/catch with a rethrowing path: the existing resume gets the probe,
; calls inside the handler that may throw unwind to our pad, existing
; invokes are left alone.
define void @try_catch() personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @try_catch(
; CHECK:         call void @__activetime_func_enter(ptr getelementptr
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %done unwind label %lpad
; CHECK:       done:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:            catch ptr null
; CHECK:         br i1 %is.cleanup, label %rethrow, label %catch
; CHECK:       catch:
; CHECK-NEXT:    [[OBJ:%obj[0-9]*]] = invoke ptr @__cxa_begin_catch(ptr %exn)
; CHECK-NEXT:            to label %[[C1:.*]] unwind label %activetime.cleanup
; CHECK:       [[C1]]:
; CHECK-NEXT:    invoke void @handle(ptr [[OBJ]])
; CHECK-NEXT:            to label %[[C2:.*]] unwind label %activetime.cleanup
; CHECK:       [[C2]]:
; CHECK-NEXT:    invoke void @__cxa_end_catch()
; CHECK-NEXT:            to label %[[C3:.*]] unwind label %activetime.cleanup
; CHECK:       [[C3]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr
; CHECK-NEXT:    ret void
; CHECK:       rethrow:
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr {{.*}}, ptr [[F]])
; CHECK-NEXT:    resume { ptr, i32 } %lp
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr
; CHECK-NEXT:    resume { ptr, i32 } %cleanup.lpad
entry:
  invoke void @may_throw()
          to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr null
  %exn = extractvalue { ptr, i32 } %lp, 0
  %sel = extractvalue { ptr, i32 } %lp, 1
  %is.cleanup = icmp eq i32 %sel, 0
  br i1 %is.cleanup, label %rethrow, label %catch
catch:
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  call void @handle(ptr %obj)
  call void @__cxa_end_catch()
  ret void
rethrow:
  resume { ptr, i32 } %lp
}

; NOEH-LABEL: define void @try_catch(
; NOEH:       rethrow:
; NOEH-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; NOEH-NEXT:    call void @__activetime_func_exit(
; NOEH-NEXT:    resume { ptr, i32 } %lp
; NOEH-NOT:   activetime.cleanup
; NOEH:       }

; A nounwind function needs no cleanup even though its callee may throw
; (an exception would terminate the program).
define void @no_unwind() nounwind {
; CHECK-LABEL: define void @no_unwind(
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    call void @may_throw()
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
  call void @may_throw()
  ret void
}

; A function without a personality that may throw gets the target's default
; personality for the new landing pad.
define void @no_personality() {
; CHECK-LABEL: define void @no_personality() personality ptr @__gcc_personality_v0 {
; CHECK:         invoke void @may_throw()
; CHECK:       activetime.cleanup:
  call void @may_throw()
  ret void
}
