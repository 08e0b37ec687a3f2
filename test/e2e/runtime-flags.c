// ACTIVETIME_OPTIONS values are checked once, at start-up, in one place: a
// value its flag does not accept (an unknown enum name, a number out of
// range, a malformed number) stops the program with one line naming the
// flag, the value and what the flag accepts, and a non-zero exit status,
// before main runs. Only the first bad value is reported.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O1 %s -o flags
// RUN: not env ACTIVETIME_OPTIONS=mode=fast ./flags > mode.out 2>&1
// RUN: FileCheck --check-prefix=MODE %s < mode.out
// RUN: count 1 < mode.out
// RUN: not env ACTIVETIME_OPTIONS=switch_source=bogus ./flags > source.out 2>&1
// RUN: FileCheck --check-prefix=SOURCE %s < source.out
// RUN: count 1 < source.out
// RUN: not env ACTIVETIME_OPTIONS=initial_stack_frames=2 ./flags > range.out 2>&1
// RUN: FileCheck --check-prefix=RANGE %s < range.out
// RUN: count 1 < range.out
// RUN: not env ACTIVETIME_OPTIONS=timing_ratio=-3 ./flags > negative.out 2>&1
// RUN: FileCheck --check-prefix=NEGATIVE %s < negative.out
// RUN: count 1 < negative.out
// RUN: not env ACTIVETIME_OPTIONS=cpuclock_check_us=1O0 ./flags > syntax.out 2>&1
// RUN: FileCheck --check-prefix=SYNTAX %s < syntax.out
// RUN: count 1 < syntax.out
// RUN: not env ACTIVETIME_OPTIONS=switch_buffer_pages=3 ./flags > pow2.out 2>&1
// RUN: FileCheck --check-prefix=POW2 %s < pow2.out
// RUN: count 1 < pow2.out
// RUN: not env ACTIVETIME_OPTIONS=output=%%z%%e.raw ./flags > pattern.out 2>&1
// RUN: FileCheck --check-prefix=PATTERN %s < pattern.out
// RUN: count 1 < pattern.out
// RUN: not ls *.raw
// RUN: not env ACTIVETIME_OPTIONS=write_profile=0:stride_inspect=0:mode=x ./flags > first.out 2>&1
// RUN: FileCheck --check-prefix=FIRST %s < first.out
// RUN: count 1 < first.out
// The documented special values are accepted.
// RUN: env ACTIVETIME_OPTIONS=write_profile=0:timing_ratio=0:stride_skip=0:code_sample_us=0:overhead_enter_ticks=-1:mode=trace:switch_source=none ./flags | FileCheck --check-prefix=GOOD %s
#include <stdio.h>

__attribute__((noinline)) int f(int x) { return x * 3; }
int main(void) {
  printf("main ran %d\n", f(14));
  return 0;
}

// PATTERN: ActiveTime: ERROR: invalid value '%z%e.raw' for flag output in ACTIVETIME_OPTIONS: expected a file name whose only % escapes are %e (executable), %p (pid) and %%
// MODE: ActiveTime: ERROR: invalid value 'fast' for flag mode in ACTIVETIME_OPTIONS: expected profile or trace
// SOURCE: ActiveTime: ERROR: invalid value 'bogus' for flag switch_source in ACTIVETIME_OPTIONS: expected auto, perf, cpuclock or none
// RANGE: ActiveTime: ERROR: invalid value '2' for flag initial_stack_frames in ACTIVETIME_OPTIONS: expected an integer from 4 to 16777216
// NEGATIVE: ActiveTime: ERROR: invalid value '-3' for flag timing_ratio in ACTIVETIME_OPTIONS: expected an integer >= 0
// SYNTAX: ActiveTime: ERROR: invalid value '1O0' for flag cpuclock_check_us in ACTIVETIME_OPTIONS: expected an integer >= 1
// POW2: ActiveTime: ERROR: invalid value '3' for flag switch_buffer_pages in ACTIVETIME_OPTIONS: expected a power of two from 1 to 1048576
// FIRST: ActiveTime: ERROR: invalid value '0' for flag stride_inspect in ACTIVETIME_OPTIONS: expected an integer from 1 to 1073741824
// GOOD: main ran 42
