; An unreadable or malformed list is an error naming the file, not a silent
; fallback to instrumenting everything.
; RUN: not %opt_at -passes=activetime -activetime-list=%S/Inputs/does-not-exist.txt \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not %opt_at -passes=activetime -activetime-list=%S/Inputs/bad.txt \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=MALFORMED

; MISSING: error: activetime: cannot use -activetime-list={{.*}}does-not-exist.txt: can't open file '{{.*}}does-not-exist.txt'
; MALFORMED: error: activetime: cannot use -activetime-list={{.*}}bad.txt: error parsing file '{{.*}}bad.txt'

define void @f() {
  ret void
}
