; Where llvm.addressofreturnaddress cannot be lowered (here RISC-V), the
; frame address stands in for the return address slot, in the timed copy and
; in a function instrumented in place alike.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=0 -S %s | FileCheck %s --check-prefix=INPLACE
; RUN: %opt_at -passes=activetime -S -mtriple=aarch64-linux-gnu %s | FileCheck %s --check-prefix=AARCH64

target triple = "riscv64-unknown-linux-gnu"

define void @f() nounwind {
; CHECK-LABEL: define void @f()
; CHECK:         %activetime.timed = icmp sge i64
; CHECK:         musttail call void @f.activetime.timed()
; CHECK-NOT:     call void @__activetime_func_
; CHECK:       }
; CHECK-LABEL: define internal void @f.activetime.timed()
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]])
; CHECK-NEXT:    ret void
; INPLACE-LABEL: define void @f()
; INPLACE:         br i1 %activetime.timed
; INPLACE:         [[F:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; INPLACE-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]])
; INPLACE:         br i1 %activetime.timed
; INPLACE:         [[F2:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; INPLACE-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]])
; INPLACE-NOT:   addressofreturnaddress
; AARCH64-LABEL: define internal void @f.activetime.timed()
; AARCH64-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; AARCH64-NEXT:    call void @__activetime_func_enter(
  ret void
}
