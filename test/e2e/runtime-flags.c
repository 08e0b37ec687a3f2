// ACTIVETIME_OPTIONS values are checked once, at start-up, in one place: a
// value its flag does not accept (an unknown enum name, a number out of
// range, a malformed number) gets one line naming the flag, the value and
// what the flag accepts, and the program then runs as it would without
// ActiveTime (its output and exit status; no profile). Only the first bad
// value is reported.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 %s -o flags
// RUN: env ACTIVETIME_OPTIONS=mode=fast ./flags > mode.out 2>&1
// RUN: FileCheck --check-prefix=MODE %s < mode.out
// RUN: count 2 < mode.out
// RUN: env ACTIVETIME_OPTIONS=switch_source=bogus ./flags > source.out 2>&1
// RUN: FileCheck --check-prefix=SOURCE %s < source.out
// RUN: count 2 < source.out
// RUN: env ACTIVETIME_OPTIONS=initial_stack_frames=2 ./flags > range.out 2>&1
// RUN: FileCheck --check-prefix=RANGE %s < range.out
// RUN: count 2 < range.out
// RUN: env ACTIVETIME_OPTIONS=timing_ratio=-3 ./flags > negative.out 2>&1
// RUN: FileCheck --check-prefix=NEGATIVE %s < negative.out
// RUN: count 2 < negative.out
// RUN: env ACTIVETIME_OPTIONS=cpuclock_check_us=1O0 ./flags > syntax.out 2>&1
// RUN: FileCheck --check-prefix=SYNTAX %s < syntax.out
// RUN: count 2 < syntax.out
// RUN: env ACTIVETIME_OPTIONS=switch_buffer_pages=3 ./flags > pow2.out 2>&1
// RUN: FileCheck --check-prefix=POW2 %s < pow2.out
// RUN: count 2 < pow2.out
// RUN: env ACTIVETIME_OPTIONS=output=%%z%%e.raw ./flags > pattern.out 2>&1
// RUN: FileCheck --check-prefix=PATTERN %s < pattern.out
// RUN: count 2 < pattern.out
// RUN: not ls *.raw
// RUN: env ACTIVETIME_OPTIONS=write_profile=0:stride_inspect=0:mode=x ./flags > first.out 2>&1
// RUN: FileCheck --check-prefix=FIRST %s < first.out
// RUN: count 2 < first.out
// The program's exit status is its own, and no profile is written.
// RUN: env ACTIVETIME_OPTIONS=mode=fast sh -c './flags x; echo status $?' 2>&1 | FileCheck --check-prefix=STATUS %s
// STATUS: main ran 42
// STATUS-NEXT: status 7
// RUN: not ls *.raw
// The documented special values are accepted.
// RUN: env ACTIVETIME_OPTIONS=write_profile=0:timing_ratio=0:stride_skip=0:code_sample_us=0:overhead_enter_ticks=-1:mode=trace:switch_source=none ./flags | FileCheck --check-prefix=GOOD %s
#include <stdio.h>

__attribute__((noinline)) int f(int x) { return x * 3; }
int main(int argc, char **argv) {
  printf("main ran %d\n", f(14));
  return argc > 1 ? 7 : 0;
}

// PATTERN: ActiveTime: ERROR: invalid value '%z%e.raw' for flag output in ACTIVETIME_OPTIONS: expected a file name whose only % escapes are %e, %p, %r, %n and %% (see the flag's help); the program runs without profiling
// PATTERN-NEXT: main ran 42
// MODE: ActiveTime: ERROR: invalid value 'fast' for flag mode in ACTIVETIME_OPTIONS: expected profile or trace; the program runs without profiling
// MODE-NEXT: main ran 42
// SOURCE: ActiveTime: ERROR: invalid value 'bogus' for flag switch_source in ACTIVETIME_OPTIONS: expected auto, perf, cpuclock or none; the program runs without profiling
// SOURCE-NEXT: main ran 42
// RANGE: ActiveTime: ERROR: invalid value '2' for flag initial_stack_frames in ACTIVETIME_OPTIONS: expected an integer from 4 to 16777216; the program runs without profiling
// RANGE-NEXT: main ran 42
// NEGATIVE: ActiveTime: ERROR: invalid value '-3' for flag timing_ratio in ACTIVETIME_OPTIONS: expected an integer >= 0; the program runs without profiling
// NEGATIVE-NEXT: main ran 42
// SYNTAX: ActiveTime: ERROR: invalid value '1O0' for flag cpuclock_check_us in ACTIVETIME_OPTIONS: expected an integer >= 1; the program runs without profiling
// SYNTAX-NEXT: main ran 42
// POW2: ActiveTime: ERROR: invalid value '3' for flag switch_buffer_pages in ACTIVETIME_OPTIONS: expected a power of two from 1 to 1048576; the program runs without profiling
// POW2-NEXT: main ran 42
// FIRST: ActiveTime: ERROR: invalid value '0' for flag stride_inspect in ACTIVETIME_OPTIONS: expected an integer from 1 to 1073741824; the program runs without profiling
// FIRST-NEXT: main ran 42
// GOOD: main ran 42
