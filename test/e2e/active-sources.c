// Where switched-out time comes from, and saying so: perf records (default),
// the thread CPU clock fallback, or nothing (then "active" is marked as not
// corrected for switched-out time). Probes measure their own cost; a
// hand-fixed overhead table is the part outside the probes' tick reads and is
// added per timed call on top of the measured part: with every call timed
// (timing_ratio=0) main's calls contain 46 nested calls, so its overhead is at
// least 3 + 46 * (3 + 2) ticks.
// The header states the step the tick counter moves by (runtime unit tests
// check the measured step against back-to-back reads).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %at_cc -O2 -g %S/calls.c -o calls
// calibrate_at_start=1: the probe table (and so the counting threshold) is
// known from the first call; by default it comes a few ms into the run
// (probe-table-beside.c), after this short program has ended.
// RUN: env ACTIVETIME_OPTIONS=output=perf.raw:calibrate_at_start=1 ./calls
// RUN: %activetime report --header perf.raw | FileCheck --check-prefix=PERF %s
// RUN: env ACTIVETIME_OPTIONS=output=cpu.raw:switch_source=cpuclock ./calls
// RUN: %activetime report cpu.raw | FileCheck --check-prefix=CPU %s
// RUN: env ACTIVETIME_OPTIONS=output=none.raw:switch_source=none ./calls
// RUN: %activetime report none.raw | FileCheck --check-prefix=NONE %s
// RUN: %activetime report --json none.raw | FileCheck --check-prefix=NONE-JSON %s
// RUN: env ACTIVETIME_OPTIONS=output=fixed.raw:overhead_enter_ticks=3:overhead_exit_ticks=2:timing_ratio=0 ./calls
// RUN: %activetime report --header fixed.raw | FileCheck --check-prefix=FIXED %s
// RUN: %activetime report --json fixed.raw | python3 -c "import json,sys; d=json.load(sys.stdin); r=d['processes'][0]['tick_rate']; print(*('%%s %%s' %% (f['name'], 'ok' if f['overhead_ns']*r/1e9 >= {'leaf': 99, 'main': 233, 'middle': 193, 'twice': 21}[f['name']] - 0.5 else round(f['overhead_ns']*r/1e9)) for f in sorted(d['functions'], key=lambda f: f['name'])))" | FileCheck --check-prefix=TICKS %s
// RUN: env ACTIVETIME_OPTIONS=switch_source=bogus ./calls 2>&1 | FileCheck --check-prefix=BAD %s

// PERF: tick step: {{1 tick$|[0-9]+\.[0-9]+ ticks \([0-9.]+ ns\): each timed interval is rounded to a step}}
// PERF: timing: a function's calls are timed while they last {{[0-9.]+ [num]?s}} or more on average
// PERF-NEXT: probe cost: measured by every probe between its two tick reads, plus {{[0-9.]+}} + {{[0-9.]+}} ns per timed call outside them
// PERF-NEXT: calibrated at start-up: 31 batches
// A loaded machine may add an UNSTABLE line after the calibration line.
// PERF: code samples:
// PERF: switched-out time from perf context-switch records: 1 thread

// CPU: switched-out time from the thread CPU clock (resolution {{.*}}): 1 thread
// CPU: note: for threads measured with the thread CPU clock
// CPU: calls elapsed active +-95% self-active +-95% % overhead off-cpu min max how function location

// NONE: switched-out time NOT MEASURED: 1 thread
// NONE: calls elapsed active* +-95% self-active* +-95% %* overhead off-cpu min* max* how function location
// NONE: * switched-out time not measured
// NONE-JSON: "switch_source": "none"

// FIXED: timing: every call timed
// FIXED-NEXT: probe cost: measured by every probe between its two tick reads, plus {{[0-9.]+}} + {{[0-9.]+}} ns per timed call outside them
// FIXED-NEXT: fixed by ACTIVETIME_OPTIONS, unfenced probes
// Lower bounds from the fixed part alone, in ticks (the measured part is on
// top): main: own entry (3) + 46 nested calls * 5; middle (11 calls): 11 * 3
// + 32 * 5; twice (2): 2 * 3 + 1 middle (5) + 2 leaf (10); leaf (33): 33 * 3.
// TICKS: leaf ok main ok middle ok twice ok

// BAD: switch_source{{.*}}; the program runs without profiling
