; -activetime-list: [deny] entries by linkage name, demangled name and source
; file; [allow] entries restrict instrumentation to what they match and
; override the size threshold; entries outside a section deny.
; RUN: %opt_at -passes=activetime -activetime-print-decisions \
; RUN:   -activetime-list=%S/Inputs/deny.txt -disable-output %s 2>&1 | FileCheck %s --check-prefix=DENY
; RUN: %opt_at -passes=activetime -activetime-print-decisions -activetime-min-size=100 \
; RUN:   -activetime-list=%S/Inputs/allow.txt -disable-output %s 2>&1 | FileCheck %s --check-prefix=ALLOW
; RUN: %opt_at -passes=activetime -activetime-print-decisions \
; RUN:   -activetime-list=%S/Inputs/bare.txt -disable-output %s 2>&1 | FileCheck %s --check-prefix=BARE
; RUN: %opt_at -passes=activetime -activetime-list=%S/Inputs/allow.txt -S %s | FileCheck %s --check-prefix=IR

; DENY-DAG: activetime: skip _Z6deniedv: denied by list
; DENY-DAG: activetime: skip _ZN2ns17by_demangled_nameEi: denied by list
; DENY-DAG: activetime: skip from_generated: denied by list
; DENY-DAG: activetime: instrument hot_loop
; DENY-DAG: activetime: instrument hot_but_denied
; DENY-DAG: activetime: instrument tiny_allowed
; DENY-DAG: activetime: instrument main_denied
; DENY-DAG: activetime: instrument cold

; ALLOW-DAG: activetime: skip _Z6deniedv: not in allow list
; ALLOW-DAG: activetime: skip _ZN2ns17by_demangled_nameEi: not in allow list
; ALLOW-DAG: activetime: skip from_generated: not in allow list
; ALLOW-DAG: activetime: instrument hot_loop
; ALLOW-DAG: activetime: skip hot_but_denied: denied by list
; ALLOW-DAG: activetime: instrument tiny_allowed
; ALLOW-DAG: activetime: skip main_denied: not in allow list
; ALLOW-DAG: activetime: skip cold: not in allow list
; ALLOW-DAG: activetime: instrument in_hot_file

; BARE-DAG: activetime: skip main_denied: denied by list
; BARE-DAG: activetime: instrument cold

; IR: @__activetime_funcs = internal constant [3 x { ptr, ptr, ptr, i32, i32 }] [{ ptr, ptr, ptr, i32, i32 } { ptr @hot_loop, {{.*}} }, { ptr, ptr, ptr, i32, i32 } { ptr @tiny_allowed, {{.*}} }, { ptr, ptr, ptr, i32, i32 } { ptr @in_hot_file, {{.*}} }]
; IR-LABEL: define void @cold()
; IR-NEXT:    ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @_Z6deniedv() {
  ret void
}

define void @_ZN2ns17by_demangled_nameEi(i32) {
  ret void
}

define void @from_generated() !dbg !5 {
  ret void, !dbg !8
}

define void @hot_loop() {
  ret void
}

define void @hot_but_denied() {
  ret void
}

; A tiny leaf, but allowed by name: the threshold does not apply.
define void @tiny_allowed() {
  ret void
}

define void @main_denied() {
  ret void
}

define void @cold() {
  ret void
}

define void @in_hot_file() !dbg !9 {
  ret void, !dbg !11
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "list.c", directory: "/src")
!2 = !DIFile(filename: "generated/gen.h", directory: "/src")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "from_generated", scope: !2, file: !2, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 3, column: 1, scope: !5)
!9 = distinct !DISubprogram(name: "in_hot_file", scope: !10, file: !10, line: 7, type: !6, scopeLine: 7, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DIFile(filename: "hot.c", directory: "/src/lib")
!11 = !DILocation(line: 7, column: 1, scope: !9)
