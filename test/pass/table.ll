; The module's function table, descriptor, counters, constructor and
; destructor, the module flag, and debug locations on the count and probes.
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Not PIC: the module owns its counter pointer (thread-local, local-exec),
; which starts at the module's bootstrap array of one zero per function.
; CHECK: @__activetime_bootstrap_counts = internal global [4 x i64] zeroinitializer
; CHECK: @__activetime_module_counts = internal thread_local(localexec) global ptr @__activetime_bootstrap_counts
; CHECK-DAG: @[[N_VIS:__activetime_name[.0-9]*]] = private unnamed_addr constant [8 x i8] c"visible\00", align 1
; CHECK-DAG: @[[FILE:__activetime_file[.0-9]*]] = private unnamed_addr constant [16 x i8] c"/home/u/src/a.c\00", align 1
; CHECK-DAG: @[[N_HELP:__activetime_name[.0-9]*]] = private unnamed_addr constant [7 x i8] c"helper\00", align 1
; CHECK-DAG: @[[ABS:__activetime_file[.0-9]*]] = private unnamed_addr constant [11 x i8] c"/abs/inc.h\00", align 1
; CHECK-DAG: @[[N_NODBG:__activetime_name[.0-9]*]] = private unnamed_addr constant [6 x i8] c"nodbg\00", align 1
; CHECK-DAG: @[[N_ASM:__activetime_name[.0-9]*]] = private unnamed_addr constant [10 x i8] c"asm_label\00", align 1
; The table lists the functions themselves, never their timed copies.
; CHECK: @__activetime_funcs = internal constant [4 x { ptr, ptr, ptr, i32, i32 }] [
; CHECK-SAME: { ptr, ptr, ptr, i32, i32 } { ptr @visible, ptr @[[N_VIS]], ptr @[[FILE]], i32 2, i32 0 },
; CHECK-SAME: { ptr, ptr, ptr, i32, i32 } { ptr @helper, ptr @[[N_HELP]], ptr @[[ABS]], i32 10, i32 1 },
; CHECK-SAME: { ptr, ptr, ptr, i32, i32 } { ptr @nodbg, ptr @[[N_NODBG]], ptr null, i32 0, i32 0 },
; CHECK-SAME: { ptr, ptr, ptr, i32, i32 } { ptr @"\01asm_label", ptr @[[N_ASM]], ptr null, i32 0, i32 0 }]
; CHECK: @[[MODNAME:__activetime_module_name[.0-9]*]] = private unnamed_addr constant [4 x i8] c"a.c\00", align 1
; The hash is xxh3_64 of "visible\0helper\0nodbg\0asm_label\0": a fixed value.
; ABI version 4; then no sites; CountBase 0, Flags 0 (own counters, not
; MDF_SharedCounts), CountsTls null until the constructor stores it, and the
; bootstrap array.
; CHECK: @__activetime_module = internal global { i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 } { i32 7, i32 4, ptr @__activetime_funcs, ptr @[[MODNAME]], i64 -7132968542204542840, ptr null, i32 0, i32 0, ptr null, i32 0, i32 0, ptr null, ptr @__activetime_bootstrap_counts, ptr null, i32 0, i32 0 }
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @activetime.module_ctor, ptr null }]
; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @activetime.module_dtor, ptr null }]
; CHECK-NOT: activetime.timed{{.*}} = {{.*}}global

source_filename = "a.c"

define i32 @visible(i32 %x) nounwind !dbg !10 {
; The count and the jump to the timed copy are at the function's line.
; CHECK-LABEL: define i32 @visible(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %x.addr = alloca i32
; CHECK-NEXT:    call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts), !dbg [[ENTRYLOC:![0-9]+]]
; CHECK:         %activetime.timed = icmp sge i64 {{%.*}}, 0, !dbg [[ENTRYLOC]]
; CHECK-NEXT:    br i1 %activetime.timed
; CHECK:         musttail call i32 @visible.activetime.timed(i32 %x), !dbg [[ENTRYLOC]]
; CHECK:         store i32 %x, ptr %x.addr
; CHECK-NEXT:    %call = call i32 @helper(i32 %x), !dbg [[CALLLOC:![0-9]+]]
; CHECK-NEXT:    ret i32 %call, !dbg [[RETLOC:![0-9]+]]
; CHECK-NEXT:  }
entry:
  %x.addr = alloca i32
  store i32 %x, ptr %x.addr
  %call = call i32 @helper(i32 %x), !dbg !18
  ret i32 %call, !dbg !20
}

define internal i32 @helper(i32 %x) !dbg !21 {
  ret i32 %x, !dbg !26
}

define void @nodbg() {
  ret void
}

; The name recorded is the symbol name, without LLVM's \01 escape.
define void @"\01asm_label"() {
  ret void
}

; The copy has the probes, at locations in its own copy of the subprogram.
; CHECK-LABEL: define internal i32 @visible.activetime.timed(
; CHECK-SAME:    i32 %x) unnamed_addr #{{[0-9]+}} !dbg [[CSP:![0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %x.addr = alloca i32
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0(), !dbg [[CENTRYLOC:![0-9]+]]
; CHECK-NEXT:    call void @__activetime_func_enter(ptr @__activetime_funcs, ptr [[F]]) #{{[0-9]+}}, !dbg [[CENTRYLOC]]
; CHECK-NEXT:    store i32 %x, ptr %x.addr
; CHECK-NEXT:    %call = call i32 @helper(i32 %x), !dbg [[CCALLLOC:![0-9]+]]
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0(), !dbg [[CRETLOC:![0-9]+]]
; CHECK-NEXT:    call void @__activetime_func_exit(ptr @__activetime_funcs, ptr [[F1]]) #{{[0-9]+}}, !dbg [[CRETLOC]]
; CHECK-NEXT:    ret i32 %call, !dbg [[CRETLOC]]

; The constructor stores the address of this thread's counter pointer into
; the descriptor (CountsTls) before registering it.
; CHECK-LABEL: define internal void @activetime.module_ctor()
; CHECK-NEXT:    call void @__activetime_version_mismatch_check_v7()
; CHECK-NEXT:    [[TLS:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__activetime_module_counts)
; CHECK-NEXT:    store ptr [[TLS]], ptr getelementptr inbounds ({ i32, i32, ptr, ptr, i64, ptr, i32, i32, ptr, i32, i32, ptr, ptr, ptr, i32, i32 }, ptr @__activetime_module, i32 0, i32 11), align 8
; CHECK-NEXT:    call void @__activetime_register_module(ptr @__activetime_module)
; CHECK-NEXT:    ret void
; CHECK:       declare void @__activetime_version_mismatch_check_v7()
; CHECK:       declare void @__activetime_register_module(ptr)
; CHECK-LABEL: define internal void @activetime.module_dtor()
; CHECK-NEXT:    call void @__activetime_unregister_module(ptr @__activetime_module)
; CHECK-NEXT:    ret void
; CHECK:       declare void @__activetime_unregister_module(ptr)

; CHECK: !llvm.module.flags = !{{{.*}}, [[FLAG:![0-9]+]]}
; CHECK: [[FLAG]] = !{i32 7, !"activetime.instrumented", i32 1}
; CHECK: [[SP:![0-9]+]] = distinct !DISubprogram(name: "visible"
; CHECK: [[ENTRYLOC]] = !DILocation(line: 2, scope: [[SP]])
; CHECK: [[CALLLOC]] = !DILocation(line: 3, column: 10, scope: [[SP]])
; CHECK: [[RETLOC]] = !DILocation(line: 4, column: 3, scope: [[SP]])
; CHECK: [[CSP]] = distinct !DISubprogram(name: "visible"
; CHECK: [[CENTRYLOC]] = !DILocation(line: 2, scope: [[CSP]])
; CHECK: [[CCALLLOC]] = !DILocation(line: 3, column: 10, scope: [[CSP]])
; CHECK: [[CRETLOC]] = !DILocation(line: 4, column: 3, scope: [[CSP]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/home/u/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "visible", scope: !1, file: !1, line: 2, type: !11, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !12)
!12 = !{null}
!18 = !DILocation(line: 3, column: 10, scope: !10)
!20 = !DILocation(line: 4, column: 3, scope: !10)
!21 = distinct !DISubprogram(name: "helper", scope: !27, file: !27, line: 10, type: !11, scopeLine: 10, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0)
!26 = !DILocation(line: 10, column: 5, scope: !21)
!27 = !DIFile(filename: "/abs/inc.h", directory: "/home/u/src")
