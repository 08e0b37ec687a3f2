// Unprivileged fallback: with perf_event_open denied (simulated by the
// perf_deny option, as perf_event_paranoid=3 or seccomp would), the default
// switch_source=auto falls back to the thread CPU clock and the report says
// so per thread; active time is still corrected, never elapsed renamed.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %S/calls.c -o calls
// RUN: env ACTIVETIME_OPTIONS=output=denied.raw:perf_deny=1:verbosity=1 ./calls 2>&1 | FileCheck --check-prefix=LOG %s
// RUN: %activetime report --header denied.raw | FileCheck --check-prefix=HDR %s
// RUN: %activetime report --json --threads denied.raw | FileCheck --check-prefix=JSON %s
// switch_source=perf asks for perf first and falls back the same way:
// RUN: env ACTIVETIME_OPTIONS=output=perf.raw:perf_deny=1:switch_source=perf ./calls
// RUN: %activetime report --header perf.raw | FileCheck --check-prefix=HDR %s

// LOG: switch_source=perf unavailable (perf_event_open failed); using cpuclock
// HDR: switched-out time from the thread CPU clock (resolution {{.*}}): 1 thread
// HDR-NOT: perf context-switch records
// JSON: "threads_without_switch_data": 0,
// JSON: "switch_source": "cpu-clock"
