; Which functions get a timed copy by size and shortest path. Up to
; -activetime-clone-always-size (100) IR instructions a function is copied;
; above it (up to -activetime-clone-max-size, 200) only if some path from
; its entry to a return runs at most -activetime-clone-short-path (32)
; instructions. A function whose every call runs more has calls long enough
; that in-place instrumentation's exit checks cost them little, and its copy
; would only double its text (docs/performance.md, "Text size of
; instrumented C++"). With -activetime-clone-short-path=0 the size alone
; decides, as before 2026-11-28: the three of up to 200 instructions are
; copied. Above -activetime-clone-max-size nothing is, short path or not.
;
; RUN: %opt_at -passes=activetime -S %s | FileCheck %s --check-prefixes=CHECK,DEFAULT
; RUN: %opt_at -passes=activetime -activetime-clone-short-path=0 -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,SIZEONLY
; RUN: %opt_at -passes=activetime -activetime-clone-always-size=0 -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,NOALWAYS
; RUN: %opt_at -passes=activetime -activetime-clone-max-size=400 -S %s \
; RUN:   | FileCheck %s --check-prefix=MAX400
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

; CHECK-LABEL: define i32 @big_early_out(i32 %x)
; CHECK-NOT:     musttail
; CHECK:         call void @__activetime_func_enter(
; CHECK:       }
; MAX400-LABEL: define i32 @big_early_out(i32 %x)
; MAX400:         musttail call i32 @big_early_out.activetime.timed(i32 %x)

; DEFAULT-LABEL:  define internal i32 @hundred.activetime.timed(
; DEFAULT-NOT:    @hundred_one.activetime.timed
; DEFAULT-LABEL:  define internal i32 @early_out.activetime.timed(
; SIZEONLY-LABEL: define internal i32 @hundred.activetime.timed(
; SIZEONLY-LABEL: define internal i32 @hundred_one.activetime.timed(
; SIZEONLY-LABEL: define internal i32 @early_out.activetime.timed(
; NOALWAYS-NOT:   @hundred.activetime.timed
; NOALWAYS-NOT:   @hundred_one.activetime.timed
; NOALWAYS-LABEL: define internal i32 @early_out.activetime.timed(
; CHECK-NOT:      @big_early_out.activetime.timed

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

; 204 instructions, a 3-instruction path: above -activetime-clone-max-size.
define i32 @big_early_out(i32 %x) nounwind {
  %zero = icmp eq i32 %x, 0
  br i1 %zero, label %out, label %long
out:
  ret i32 0
long:
  %w0 = add i32 %x, 1
  %w1 = add i32 %w0, 2
  %w2 = add i32 %w1, 3
  %w3 = add i32 %w2, 4
  %w4 = add i32 %w3, 5
  %w5 = add i32 %w4, 6
  %w6 = add i32 %w5, 7
  %w7 = add i32 %w6, 8
  %w8 = add i32 %w7, 9
  %w9 = add i32 %w8, 10
  %w10 = add i32 %w9, 11
  %w11 = add i32 %w10, 12
  %w12 = add i32 %w11, 13
  %w13 = add i32 %w12, 14
  %w14 = add i32 %w13, 15
  %w15 = add i32 %w14, 16
  %w16 = add i32 %w15, 17
  %w17 = add i32 %w16, 18
  %w18 = add i32 %w17, 19
  %w19 = add i32 %w18, 20
  %w20 = add i32 %w19, 21
  %w21 = add i32 %w20, 22
  %w22 = add i32 %w21, 23
  %w23 = add i32 %w22, 24
  %w24 = add i32 %w23, 25
  %w25 = add i32 %w24, 26
  %w26 = add i32 %w25, 27
  %w27 = add i32 %w26, 28
  %w28 = add i32 %w27, 29
  %w29 = add i32 %w28, 30
  %w30 = add i32 %w29, 31
  %w31 = add i32 %w30, 32
  %w32 = add i32 %w31, 33
  %w33 = add i32 %w32, 34
  %w34 = add i32 %w33, 35
  %w35 = add i32 %w34, 36
  %w36 = add i32 %w35, 37
  %w37 = add i32 %w36, 38
  %w38 = add i32 %w37, 39
  %w39 = add i32 %w38, 40
  %w40 = add i32 %w39, 41
  %w41 = add i32 %w40, 42
  %w42 = add i32 %w41, 43
  %w43 = add i32 %w42, 44
  %w44 = add i32 %w43, 45
  %w45 = add i32 %w44, 46
  %w46 = add i32 %w45, 47
  %w47 = add i32 %w46, 48
  %w48 = add i32 %w47, 49
  %w49 = add i32 %w48, 50
  %w50 = add i32 %w49, 51
  %w51 = add i32 %w50, 52
  %w52 = add i32 %w51, 53
  %w53 = add i32 %w52, 54
  %w54 = add i32 %w53, 55
  %w55 = add i32 %w54, 56
  %w56 = add i32 %w55, 57
  %w57 = add i32 %w56, 58
  %w58 = add i32 %w57, 59
  %w59 = add i32 %w58, 60
  %w60 = add i32 %w59, 61
  %w61 = add i32 %w60, 62
  %w62 = add i32 %w61, 63
  %w63 = add i32 %w62, 64
  %w64 = add i32 %w63, 65
  %w65 = add i32 %w64, 66
  %w66 = add i32 %w65, 67
  %w67 = add i32 %w66, 68
  %w68 = add i32 %w67, 69
  %w69 = add i32 %w68, 70
  %w70 = add i32 %w69, 71
  %w71 = add i32 %w70, 72
  %w72 = add i32 %w71, 73
  %w73 = add i32 %w72, 74
  %w74 = add i32 %w73, 75
  %w75 = add i32 %w74, 76
  %w76 = add i32 %w75, 77
  %w77 = add i32 %w76, 78
  %w78 = add i32 %w77, 79
  %w79 = add i32 %w78, 80
  %w80 = add i32 %w79, 81
  %w81 = add i32 %w80, 82
  %w82 = add i32 %w81, 83
  %w83 = add i32 %w82, 84
  %w84 = add i32 %w83, 85
  %w85 = add i32 %w84, 86
  %w86 = add i32 %w85, 87
  %w87 = add i32 %w86, 88
  %w88 = add i32 %w87, 89
  %w89 = add i32 %w88, 90
  %w90 = add i32 %w89, 91
  %w91 = add i32 %w90, 92
  %w92 = add i32 %w91, 93
  %w93 = add i32 %w92, 94
  %w94 = add i32 %w93, 95
  %w95 = add i32 %w94, 96
  %w96 = add i32 %w95, 97
  %w97 = add i32 %w96, 98
  %w98 = add i32 %w97, 99
  %w99 = add i32 %w98, 100
  %w100 = add i32 %w99, 101
  %w101 = add i32 %w100, 102
  %w102 = add i32 %w101, 103
  %w103 = add i32 %w102, 104
  %w104 = add i32 %w103, 105
  %w105 = add i32 %w104, 106
  %w106 = add i32 %w105, 107
  %w107 = add i32 %w106, 108
  %w108 = add i32 %w107, 109
  %w109 = add i32 %w108, 110
  %w110 = add i32 %w109, 111
  %w111 = add i32 %w110, 112
  %w112 = add i32 %w111, 113
  %w113 = add i32 %w112, 114
  %w114 = add i32 %w113, 115
  %w115 = add i32 %w114, 116
  %w116 = add i32 %w115, 117
  %w117 = add i32 %w116, 118
  %w118 = add i32 %w117, 119
  %w119 = add i32 %w118, 120
  %w120 = add i32 %w119, 121
  %w121 = add i32 %w120, 122
  %w122 = add i32 %w121, 123
  %w123 = add i32 %w122, 124
  %w124 = add i32 %w123, 125
  %w125 = add i32 %w124, 126
  %w126 = add i32 %w125, 127
  %w127 = add i32 %w126, 128
  %w128 = add i32 %w127, 129
  %w129 = add i32 %w128, 130
  %w130 = add i32 %w129, 131
  %w131 = add i32 %w130, 132
  %w132 = add i32 %w131, 133
  %w133 = add i32 %w132, 134
  %w134 = add i32 %w133, 135
  %w135 = add i32 %w134, 136
  %w136 = add i32 %w135, 137
  %w137 = add i32 %w136, 138
  %w138 = add i32 %w137, 139
  %w139 = add i32 %w138, 140
  %w140 = add i32 %w139, 141
  %w141 = add i32 %w140, 142
  %w142 = add i32 %w141, 143
  %w143 = add i32 %w142, 144
  %w144 = add i32 %w143, 145
  %w145 = add i32 %w144, 146
  %w146 = add i32 %w145, 147
  %w147 = add i32 %w146, 148
  %w148 = add i32 %w147, 149
  %w149 = add i32 %w148, 150
  %w150 = add i32 %w149, 151
  %w151 = add i32 %w150, 152
  %w152 = add i32 %w151, 153
  %w153 = add i32 %w152, 154
  %w154 = add i32 %w153, 155
  %w155 = add i32 %w154, 156
  %w156 = add i32 %w155, 157
  %w157 = add i32 %w156, 158
  %w158 = add i32 %w157, 159
  %w159 = add i32 %w158, 160
  %w160 = add i32 %w159, 161
  %w161 = add i32 %w160, 162
  %w162 = add i32 %w161, 163
  %w163 = add i32 %w162, 164
  %w164 = add i32 %w163, 165
  %w165 = add i32 %w164, 166
  %w166 = add i32 %w165, 167
  %w167 = add i32 %w166, 168
  %w168 = add i32 %w167, 169
  %w169 = add i32 %w168, 170
  %w170 = add i32 %w169, 171
  %w171 = add i32 %w170, 172
  %w172 = add i32 %w171, 173
  %w173 = add i32 %w172, 174
  %w174 = add i32 %w173, 175
  %w175 = add i32 %w174, 176
  %w176 = add i32 %w175, 177
  %w177 = add i32 %w176, 178
  %w178 = add i32 %w177, 179
  %w179 = add i32 %w178, 180
  %w180 = add i32 %w179, 181
  %w181 = add i32 %w180, 182
  %w182 = add i32 %w181, 183
  %w183 = add i32 %w182, 184
  %w184 = add i32 %w183, 185
  %w185 = add i32 %w184, 186
  %w186 = add i32 %w185, 187
  %w187 = add i32 %w186, 188
  %w188 = add i32 %w187, 189
  %w189 = add i32 %w188, 190
  %w190 = add i32 %w189, 191
  %w191 = add i32 %w190, 192
  %w192 = add i32 %w191, 193
  %w193 = add i32 %w192, 194
  %w194 = add i32 %w193, 195
  %w195 = add i32 %w194, 196
  %w196 = add i32 %w195, 197
  %w197 = add i32 %w196, 198
  %w198 = add i32 %w197, 199
  %w199 = add i32 %w198, 200
  ret i32 %w199
}
