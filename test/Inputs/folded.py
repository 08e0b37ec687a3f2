#!/usr/bin/env python3
"""Checks `activetime export --format=folded --value=samples` output (stdin)
for the sampling e2e test: prints one verdict line per property so FileCheck
sees exactly which one failed. Counts, never times (no wall-clock
thresholds): on-CPU and off-CPU samples per stack."""
import sys

on, off, pre = {}, {}, {}
frames = set()
for line in sys.stdin:
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    parts = stack.split(";")
    d = {"[off-CPU]": off, "[preempted]": pre}.get(parts[-1], on)
    if d is not on:
        parts = parts[:-1]
    # A sample can find no instrumented frame on the stack (before main's
    # entry probe or during exit): legitimate, and not a frame of the program.
    frames.update(p for p in parts if p != "[outside instrumented code]")
    key = ";".join(parts)
    d[key] = d.get(key, 0) + int(n)

def get(d, k):
    return d.get(k, 0)

print("frames:", " ".join(sorted(frames)))
print("A on-CPU samples > 0:", get(on, "main;compute_A") > 0)
print("B off-CPU samples > 0:", get(off, "main;block_B") > 0)
# B runs on a CPU only for the microseconds around usleep's system call.
print("B mostly off-CPU:",
      get(off, "main;block_B") + get(pre, "main;block_B") >= 4 * get(on, "main;block_B"))
# A never blocks (off CPU there is preemption on a busy machine; a stray
# non-preempt switch-out, e.g. CPU throttling, is possible): B's blocked time
# must land in B, not in A, the thread's previous activity.
print("blocked time in B, not A:",
      10 * get(off, "main;compute_A") <= get(off, "main;block_B"))
