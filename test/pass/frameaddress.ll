; Where llvm.addressofreturnaddress cannot be lowered (here RISC-V), the
; frame address stands in for the return address slot.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime -S -mtriple=aarch64-linux-gnu %s | FileCheck %s --check-prefix=AARCH64

target triple = "riscv64-unknown-linux-gnu"

define void @f() nounwind {
; CHECK-LABEL: define void @f()
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]])
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F2]])
; CHECK-NEXT:    ret void
; AARCH64-LABEL: define void @f()
; AARCH64-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; AARCH64-NEXT:    call void @__activetime_func_enter(
  ret void
}
