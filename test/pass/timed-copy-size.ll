; Which functions get a timed copy by size and shortest path. Up to
; -activetime-clone-always-size (100) IR instructions a function is copied;
; above it (up to -activetime-clone-max-size, 400) only if some path from
; its entry to a return runs at most -activetime-clone-short-path (32)
; instructions. A function whose every call runs more has calls long enough
; that in-place instrumentation's exit checks cost them little, and its copy
; would only double its text (docs/performance.md, "Text size of
; instrumented C++"). With -activetime-clone-short-path=0 the size alone
; decides, as before: all three are copied.
;
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefixes=CHECK,DEFAULT
; RUN: %opt_at -passes=activetime -activetime-clone-short-path=0 -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,SIZEONLY
; RUN: %opt_at -passes=activetime -activetime-clone-always-size=0 -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,NOALWAYS
; RUN: %opt_at -passes=activetime %s | %opt -passes=verify -disable-output
; RUN: %opt_at -passes=activetime %s | llc -O2 -filetype=null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i32 @hundred(i32 %x)
; CHECK:         br i1 %activetime.timed, label %[[JUMP:[0-9]+]], label %[[BODY:[0-9]+]]
; CHECK:       {{^}}[[JUMP]]:
; DEFAULT-NEXT:  [[R:%.*]] = musttail call i32 @hundred.activetime.timed(i32 %x)
; DEFAULT-NEXT:  ret i32 [[R]]
; SIZEONLY-NEXT: musttail call i32 @hundred.activetime.timed(i32 %x)
; NOALWAYS-NEXT: call ptr @llvm.addressofreturnaddress.p0()
; NOALWAYS-NEXT: call void @__activetime_func_enter(
; CHECK:       {{^}}[[BODY]]:
; CHECK-NEXT:    %v0 = add i32 %x, 1
; CHECK:         ret i32 %v98
; CHECK-NEXT:  }

; CHECK-LABEL: define i32 @hundred_one(i32 %x)
; CHECK:         br i1 %activetime.timed, label %[[THEN:[0-9]+]], label %[[BODY1:[0-9]+]]
; CHECK:       {{^}}[[THEN]]:
; DEFAULT-NEXT:  call ptr @llvm.addressofreturnaddress.p0()
; DEFAULT-NEXT:  call void @__activetime_func_enter(
; DEFAULT-NEXT:  br label %[[BODY1]]
; SIZEONLY-NEXT: [[R1:%.*]] = musttail call i32 @hundred_one.activetime.timed(i32 %x)
; SIZEONLY-NEXT: ret i32 [[R1]]
; CHECK:       {{^}}[[BODY1]]:
; CHECK-NEXT:    %v0 = add i32 %x, 1
; DEFAULT:       %v99 = add i32 %v98, 100
; DEFAULT-NEXT:  br i1 %activetime.timed
; DEFAULT:       call void @__activetime_func_exit(
; CHECK:         ret i32 %v99
; CHECK-NEXT:  }

; CHECK-LABEL: define i32 @early_out(i32 %x)
; CHECK:         musttail call i32 @early_out.activetime.timed(i32 %x)
; CHECK:       }

; DEFAULT-LABEL:  define internal i32 @hundred.activetime.timed(
; DEFAULT-NOT:    @hundred_one.activetime.timed
; DEFAULT-LABEL:  define internal i32 @early_out.activetime.timed(
; SIZEONLY-LABEL: define internal i32 @hundred.activetime.timed(
; SIZEONLY-LABEL: define internal i32 @hundred_one.activetime.timed(
; SIZEONLY-LABEL: define internal i32 @early_out.activetime.timed(
; NOALWAYS-NOT:   @hundred.activetime.timed
; NOALWAYS-NOT:   @hundred_one.activetime.timed
; NOALWAYS-LABEL: define internal i32 @early_out.activetime.timed(

; 100 instructions: copied, whatever its path.
define i32 @hundred(i32 %x) nounwind {
  %v0 = add i32 %x, 1
  %v1 = add i32 %v0, 2
  %v2 = add i32 %v1, 3
  %v3 = add i32 %v2, 4
  %v4 = add i32 %v3, 5
  %v5 = add i32 %v4, 6
  %v6 = add i32 %v5, 7
  %v7 = add i32 %v6, 8
  %v8 = add i32 %v7, 9
  %v9 = add i32 %v8, 10
  %v10 = add i32 %v9, 11
  %v11 = add i32 %v10, 12
  %v12 = add i32 %v11, 13
  %v13 = add i32 %v12, 14
  %v14 = add i32 %v13, 15
  %v15 = add i32 %v14, 16
  %v16 = add i32 %v15, 17
  %v17 = add i32 %v16, 18
  %v18 = add i32 %v17, 19
  %v19 = add i32 %v18, 20
  %v20 = add i32 %v19, 21
  %v21 = add i32 %v20, 22
  %v22 = add i32 %v21, 23
  %v23 = add i32 %v22, 24
  %v24 = add i32 %v23, 25
  %v25 = add i32 %v24, 26
  %v26 = add i32 %v25, 27
  %v27 = add i32 %v26, 28
  %v28 = add i32 %v27, 29
  %v29 = add i32 %v28, 30
  %v30 = add i32 %v29, 31
  %v31 = add i32 %v30, 32
  %v32 = add i32 %v31, 33
  %v33 = add i32 %v32, 34
  %v34 = add i32 %v33, 35
  %v35 = add i32 %v34, 36
  %v36 = add i32 %v35, 37
  %v37 = add i32 %v36, 38
  %v38 = add i32 %v37, 39
  %v39 = add i32 %v38, 40
  %v40 = add i32 %v39, 41
  %v41 = add i32 %v40, 42
  %v42 = add i32 %v41, 43
  %v43 = add i32 %v42, 44
  %v44 = add i32 %v43, 45
  %v45 = add i32 %v44, 46
  %v46 = add i32 %v45, 47
  %v47 = add i32 %v46, 48
  %v48 = add i32 %v47, 49
  %v49 = add i32 %v48, 50
  %v50 = add i32 %v49, 51
  %v51 = add i32 %v50, 52
  %v52 = add i32 %v51, 53
  %v53 = add i32 %v52, 54
  %v54 = add i32 %v53, 55
  %v55 = add i32 %v54, 56
  %v56 = add i32 %v55, 57
  %v57 = add i32 %v56, 58
  %v58 = add i32 %v57, 59
  %v59 = add i32 %v58, 60
  %v60 = add i32 %v59, 61
  %v61 = add i32 %v60, 62
  %v62 = add i32 %v61, 63
  %v63 = add i32 %v62, 64
  %v64 = add i32 %v63, 65
  %v65 = add i32 %v64, 66
  %v66 = add i32 %v65, 67
  %v67 = add i32 %v66, 68
  %v68 = add i32 %v67, 69
  %v69 = add i32 %v68, 70
  %v70 = add i32 %v69, 71
  %v71 = add i32 %v70, 72
  %v72 = add i32 %v71, 73
  %v73 = add i32 %v72, 74
  %v74 = add i32 %v73, 75
  %v75 = add i32 %v74, 76
  %v76 = add i32 %v75, 77
  %v77 = add i32 %v76, 78
  %v78 = add i32 %v77, 79
  %v79 = add i32 %v78, 80
  %v80 = add i32 %v79, 81
  %v81 = add i32 %v80, 82
  %v82 = add i32 %v81, 83
  %v83 = add i32 %v82, 84
  %v84 = add i32 %v83, 85
  %v85 = add i32 %v84, 86
  %v86 = add i32 %v85, 87
  %v87 = add i32 %v86, 88
  %v88 = add i32 %v87, 89
  %v89 = add i32 %v88, 90
  %v90 = add i32 %v89, 91
  %v91 = add i32 %v90, 92
  %v92 = add i32 %v91, 93
  %v93 = add i32 %v92, 94
  %v94 = add i32 %v93, 95
  %v95 = add i32 %v94, 96
  %v96 = add i32 %v95, 97
  %v97 = add i32 %v96, 98
  %v98 = add i32 %v97, 99
  ret i32 %v98
}

; 101 instructions, every call runs all of them: in place.
define i32 @hundred_one(i32 %x) nounwind {
  %v0 = add i32 %x, 1
  %v1 = add i32 %v0, 2
  %v2 = add i32 %v1, 3
  %v3 = add i32 %v2, 4
  %v4 = add i32 %v3, 5
  %v5 = add i32 %v4, 6
  %v6 = add i32 %v5, 7
  %v7 = add i32 %v6, 8
  %v8 = add i32 %v7, 9
  %v9 = add i32 %v8, 10
  %v10 = add i32 %v9, 11
  %v11 = add i32 %v10, 12
  %v12 = add i32 %v11, 13
  %v13 = add i32 %v12, 14
  %v14 = add i32 %v13, 15
  %v15 = add i32 %v14, 16
  %v16 = add i32 %v15, 17
  %v17 = add i32 %v16, 18
  %v18 = add i32 %v17, 19
  %v19 = add i32 %v18, 20
  %v20 = add i32 %v19, 21
  %v21 = add i32 %v20, 22
  %v22 = add i32 %v21, 23
  %v23 = add i32 %v22, 24
  %v24 = add i32 %v23, 25
  %v25 = add i32 %v24, 26
  %v26 = add i32 %v25, 27
  %v27 = add i32 %v26, 28
  %v28 = add i32 %v27, 29
  %v29 = add i32 %v28, 30
  %v30 = add i32 %v29, 31
  %v31 = add i32 %v30, 32
  %v32 = add i32 %v31, 33
  %v33 = add i32 %v32, 34
  %v34 = add i32 %v33, 35
  %v35 = add i32 %v34, 36
  %v36 = add i32 %v35, 37
  %v37 = add i32 %v36, 38
  %v38 = add i32 %v37, 39
  %v39 = add i32 %v38, 40
  %v40 = add i32 %v39, 41
  %v41 = add i32 %v40, 42
  %v42 = add i32 %v41, 43
  %v43 = add i32 %v42, 44
  %v44 = add i32 %v43, 45
  %v45 = add i32 %v44, 46
  %v46 = add i32 %v45, 47
  %v47 = add i32 %v46, 48
  %v48 = add i32 %v47, 49
  %v49 = add i32 %v48, 50
  %v50 = add i32 %v49, 51
  %v51 = add i32 %v50, 52
  %v52 = add i32 %v51, 53
  %v53 = add i32 %v52, 54
  %v54 = add i32 %v53, 55
  %v55 = add i32 %v54, 56
  %v56 = add i32 %v55, 57
  %v57 = add i32 %v56, 58
  %v58 = add i32 %v57, 59
  %v59 = add i32 %v58, 60
  %v60 = add i32 %v59, 61
  %v61 = add i32 %v60, 62
  %v62 = add i32 %v61, 63
  %v63 = add i32 %v62, 64
  %v64 = add i32 %v63, 65
  %v65 = add i32 %v64, 66
  %v66 = add i32 %v65, 67
  %v67 = add i32 %v66, 68
  %v68 = add i32 %v67, 69
  %v69 = add i32 %v68, 70
  %v70 = add i32 %v69, 71
  %v71 = add i32 %v70, 72
  %v72 = add i32 %v71, 73
  %v73 = add i32 %v72, 74
  %v74 = add i32 %v73, 75
  %v75 = add i32 %v74, 76
  %v76 = add i32 %v75, 77
  %v77 = add i32 %v76, 78
  %v78 = add i32 %v77, 79
  %v79 = add i32 %v78, 80
  %v80 = add i32 %v79, 81
  %v81 = add i32 %v80, 82
  %v82 = add i32 %v81, 83
  %v83 = add i32 %v82, 84
  %v84 = add i32 %v83, 85
  %v85 = add i32 %v84, 86
  %v86 = add i32 %v85, 87
  %v87 = add i32 %v86, 88
  %v88 = add i32 %v87, 89
  %v89 = add i32 %v88, 90
  %v90 = add i32 %v89, 91
  %v91 = add i32 %v90, 92
  %v92 = add i32 %v91, 93
  %v93 = add i32 %v92, 94
  %v94 = add i32 %v93, 95
  %v95 = add i32 %v94, 96
  %v96 = add i32 %v95, 97
  %v97 = add i32 %v96, 98
  %v98 = add i32 %v97, 99
  %v99 = add i32 %v98, 100
  ret i32 %v99
}

; 104 instructions, but a call with %x == 0 runs 3: copied.
define i32 @early_out(i32 %x) nounwind {
  %zero = icmp eq i32 %x, 0
  br i1 %zero, label %out, label %long
out:
  ret i32 0
long:
  %v0 = add i32 %x, 1
  %v1 = add i32 %v0, 2
  %v2 = add i32 %v1, 3
  %v3 = add i32 %v2, 4
  %v4 = add i32 %v3, 5
  %v5 = add i32 %v4, 6
  %v6 = add i32 %v5, 7
  %v7 = add i32 %v6, 8
  %v8 = add i32 %v7, 9
  %v9 = add i32 %v8, 10
  %v10 = add i32 %v9, 11
  %v11 = add i32 %v10, 12
  %v12 = add i32 %v11, 13
  %v13 = add i32 %v12, 14
  %v14 = add i32 %v13, 15
  %v15 = add i32 %v14, 16
  %v16 = add i32 %v15, 17
  %v17 = add i32 %v16, 18
  %v18 = add i32 %v17, 19
  %v19 = add i32 %v18, 20
  %v20 = add i32 %v19, 21
  %v21 = add i32 %v20, 22
  %v22 = add i32 %v21, 23
  %v23 = add i32 %v22, 24
  %v24 = add i32 %v23, 25
  %v25 = add i32 %v24, 26
  %v26 = add i32 %v25, 27
  %v27 = add i32 %v26, 28
  %v28 = add i32 %v27, 29
  %v29 = add i32 %v28, 30
  %v30 = add i32 %v29, 31
  %v31 = add i32 %v30, 32
  %v32 = add i32 %v31, 33
  %v33 = add i32 %v32, 34
  %v34 = add i32 %v33, 35
  %v35 = add i32 %v34, 36
  %v36 = add i32 %v35, 37
  %v37 = add i32 %v36, 38
  %v38 = add i32 %v37, 39
  %v39 = add i32 %v38, 40
  %v40 = add i32 %v39, 41
  %v41 = add i32 %v40, 42
  %v42 = add i32 %v41, 43
  %v43 = add i32 %v42, 44
  %v44 = add i32 %v43, 45
  %v45 = add i32 %v44, 46
  %v46 = add i32 %v45, 47
  %v47 = add i32 %v46, 48
  %v48 = add i32 %v47, 49
  %v49 = add i32 %v48, 50
  %v50 = add i32 %v49, 51
  %v51 = add i32 %v50, 52
  %v52 = add i32 %v51, 53
  %v53 = add i32 %v52, 54
  %v54 = add i32 %v53, 55
  %v55 = add i32 %v54, 56
  %v56 = add i32 %v55, 57
  %v57 = add i32 %v56, 58
  %v58 = add i32 %v57, 59
  %v59 = add i32 %v58, 60
  %v60 = add i32 %v59, 61
  %v61 = add i32 %v60, 62
  %v62 = add i32 %v61, 63
  %v63 = add i32 %v62, 64
  %v64 = add i32 %v63, 65
  %v65 = add i32 %v64, 66
  %v66 = add i32 %v65, 67
  %v67 = add i32 %v66, 68
  %v68 = add i32 %v67, 69
  %v69 = add i32 %v68, 70
  %v70 = add i32 %v69, 71
  %v71 = add i32 %v70, 72
  %v72 = add i32 %v71, 73
  %v73 = add i32 %v72, 74
  %v74 = add i32 %v73, 75
  %v75 = add i32 %v74, 76
  %v76 = add i32 %v75, 77
  %v77 = add i32 %v76, 78
  %v78 = add i32 %v77, 79
  %v79 = add i32 %v78, 80
  %v80 = add i32 %v79, 81
  %v81 = add i32 %v80, 82
  %v82 = add i32 %v81, 83
  %v83 = add i32 %v82, 84
  %v84 = add i32 %v83, 85
  %v85 = add i32 %v84, 86
  %v86 = add i32 %v85, 87
  %v87 = add i32 %v86, 88
  %v88 = add i32 %v87, 89
  %v89 = add i32 %v88, 90
  %v90 = add i32 %v89, 91
  %v91 = add i32 %v90, 92
  %v92 = add i32 %v91, 93
  %v93 = add i32 %v92, 94
  %v94 = add i32 %v93, 95
  %v95 = add i32 %v94, 96
  %v96 = add i32 %v95, 97
  %v97 = add i32 %v96, 98
  %v98 = add i32 %v97, 99
  %v99 = add i32 %v98, 100
  ret i32 %v99
}
