; Unwinding leaves through an exit probe: calls that may throw become invokes
; into a cleanup pad that runs the probe and resumes, and existing resumes get
; the probe too. Nounwind calls, nounwind functions and
; -activetime-handle-exceptions=false get no cleanup.
;
; In place (-activetime-clone-max-size=0) every exit probe, the cleanup
; pad's included, runs only when the entry's count said the call is timed.
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 -activetime-handle-exceptions=false -S %s \
; RUN:   | FileCheck %s --check-prefix=NOEH
;
; With timed copies (the default) the function itself keeps its calls as
; they are (a counted call has no probe to run when unwinding); the copy
; gets the invokes, the cleanup pad and unconditional probes.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefix=COPY
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -filetype=null
; RUN: %opt_at -passes=activetime -activetime-handle-exceptions=false -S %s \
; RUN:   | FileCheck %s --check-prefix=NOEHCOPY

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
; CHECK:         %activetime.timed = icmp sge i64
; CHECK-NEXT:    br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    call void @wont_throw()
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %[[CONT:.*]] unwind label %activetime.cleanup
; CHECK:       {{^}}[[CONT]]:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:    ret void
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    br i1 %activetime.timed, label %[[UEXIT:[0-9]+]], label %[[RESUME:[0-9]+]]
; CHECK:       {{^}}[[UEXIT]]:
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    br label %[[RESUME]]
; CHECK:       {{^}}[[RESUME]]:
; CHECK-NEXT:    resume { ptr, i32 } %cleanup.lpad
; CHECK-NEXT:  }
;
; COPY-LABEL: define void @calls(
; COPY:         musttail call void @calls.activetime.timed(i32 %x)
; COPY-NEXT:    ret void
; COPY:         call void @wont_throw()
; COPY-NEXT:    call void @may_throw()
; COPY-NEXT:    ret void
; COPY-NEXT:  }
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
; CHECK:         br i1 %activetime.timed, label %[[ENTER:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[ENTER]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_enter(ptr getelementptr
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:            to label %done unwind label %lpad
; CHECK:       done:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:    ret void
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:            catch ptr null
; CHECK:         br i1 %is.cleanup, label %rethrow, label %catch
; CHECK:       catch:
; CHECK-NEXT:    [[OBJ:%obj[0-9]*]] = invoke ptr @__cxa_begin_catch(ptr %exn)
; CHECK-NEXT:            to label %[[C1:.*]] unwind label %activetime.cleanup
; CHECK:       {{^}}[[C1]]:
; CHECK-NEXT:    invoke void @handle(ptr [[OBJ]])
; CHECK-NEXT:            to label %[[C2:.*]] unwind label %activetime.cleanup
; CHECK:       {{^}}[[C2]]:
; CHECK-NEXT:    invoke void @__cxa_end_catch()
; CHECK-NEXT:            to label %[[C3:.*]] unwind label %activetime.cleanup
; CHECK:       {{^}}[[C3]]:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT2:[0-9]+]], label %[[RET2:[0-9]+]]
; CHECK:       {{^}}[[EXIT2]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr
; CHECK-NEXT:    br label %[[RET2]]
; CHECK:       {{^}}[[RET2]]:
; CHECK-NEXT:    ret void
; CHECK:       rethrow:
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT3:[0-9]+]], label %[[RESUME3:[0-9]+]]
; CHECK:       {{^}}[[EXIT3]]:
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr {{.*}}, ptr [[F]])
; CHECK-NEXT:    br label %[[RESUME3]]
; CHECK:       {{^}}[[RESUME3]]:
; CHECK-NEXT:    resume { ptr, i32 } %lp
; CHECK:       activetime.cleanup:
; CHECK-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT4:[0-9]+]], label %[[RESUME4:[0-9]+]]
; CHECK:       {{^}}[[EXIT4]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(ptr getelementptr
; CHECK-NEXT:    br label %[[RESUME4]]
; CHECK:       {{^}}[[RESUME4]]:
; CHECK-NEXT:    resume { ptr, i32 } %cleanup.lpad
;
; COPY-LABEL: define void @try_catch(
; COPY:         musttail call void @try_catch.activetime.timed()
; COPY-NEXT:    ret void
; COPY:         invoke void @may_throw()
; COPY-NEXT:            to label %done unwind label %lpad
; COPY:       done:
; COPY-NEXT:    ret void
; COPY:       catch:
; COPY-NEXT:    %obj = call ptr @__cxa_begin_catch(ptr %exn)
; COPY:       rethrow:
; COPY-NEXT:    resume { ptr, i32 } %lp
; COPY-NEXT:  }
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
; NOEH-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RESUME:[0-9]+]]
; NOEH:       {{^}}[[EXIT]]:
; NOEH-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; NOEH-NEXT:    call void @__activetime_func_exit(
; NOEH-NEXT:    br label %[[RESUME]]
; NOEH:       {{^}}[[RESUME]]:
; NOEH-NEXT:    resume { ptr, i32 } %lp
; NOEH-NOT:   activetime.cleanup
; NOEH:       }

; A nounwind function needs no cleanup even though its callee may throw
; (an exception would terminate the program).
define void @no_unwind() nounwind {
; CHECK-LABEL: define void @no_unwind(
; CHECK:         call void @__activetime_func_enter(
; CHECK-NEXT:    br label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    call void @may_throw()
; CHECK-NEXT:    br i1 %activetime.timed, label %[[EXIT:[0-9]+]], label %[[RET:[0-9]+]]
; CHECK:       {{^}}[[EXIT]]:
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__activetime_func_exit(
; CHECK-NEXT:    br label %[[RET]]
; CHECK:       {{^}}[[RET]]:
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
  call void @may_throw()
  ret void
}

; A function without a personality that may throw gets the target's default
; personality for the new landing pad (in place: the function; with a copy:
; only the copy, the function itself has no landing pad).
define void @no_personality() {
; CHECK-LABEL: define void @no_personality() personality ptr @__gcc_personality_v0 {
; CHECK:         invoke void @may_throw()
; CHECK:       activetime.cleanup:
; COPY-LABEL: define void @no_personality() {
  call void @may_throw()
  ret void
}

; The timed copies, after the functions: the probes are unconditional.
; COPY-LABEL: define internal void @calls.activetime.timed(
; COPY-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]])
; COPY-NEXT:    call void @wont_throw()
; COPY-NEXT:    invoke void @may_throw()
; COPY-NEXT:            to label %[[CONT:.*]] unwind label %activetime.cleanup
; COPY:       {{^}}[[CONT]]:
; COPY-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]])
; COPY-NEXT:    ret void
; COPY:       activetime.cleanup:
; COPY-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; COPY-NEXT:            cleanup
; COPY-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]])
; COPY-NEXT:    resume { ptr, i32 } %cleanup.lpad
; COPY-NEXT:  }
; COPY-LABEL: define internal void @try_catch.activetime.timed(
; COPY:         call void @__activetime_func_enter(
; COPY-NEXT:    invoke void @may_throw()
; COPY-NEXT:            to label %done unwind label %lpad
; COPY:       done:
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    ret void
; COPY:       catch:
; COPY-NEXT:    invoke ptr @__cxa_begin_catch(ptr %exn)
; COPY-NEXT:            to label %{{.*}} unwind label %activetime.cleanup
; COPY:       rethrow:
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    resume { ptr, i32 } %lp
; COPY:       activetime.cleanup:
; COPY-NEXT:    %cleanup.lpad = landingpad { ptr, i32 }
; COPY-NEXT:            cleanup
; COPY-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; COPY-NEXT:    call void @__activetime_func_exit(
; COPY-NEXT:    resume { ptr, i32 } %cleanup.lpad
; COPY-NEXT:  }
; COPY-LABEL: define internal void @no_unwind.activetime.timed(
; COPY-NOT:     landingpad
; COPY:       }
; COPY-LABEL: define internal void @no_personality.activetime.timed() unnamed_addr #{{[0-9]+}} personality ptr @__gcc_personality_v0 {
; COPY:         invoke void @may_throw()
; COPY:       activetime.cleanup:

; NOEHCOPY-LABEL: define internal void @calls.activetime.timed(
; NOEHCOPY-NOT:     invoke
; NOEHCOPY-NOT:     landingpad
; NOEHCOPY:       }
