#!/usr/bin/env python3
"""blocked-check.py OUT JSON: checks a profile of e2e/blocked-at-exit.cpp.
OUT holds the program's "cpu_ns N" (the waiting thread's CPU time over its
work, by its own clock); JSON is `activetime report --json`. Prints one line
per check that holds, and the figures when one does not."""
import json
import sys

cpu = None
for line in open(sys.argv[1]):
    if line.startswith("cpu_ns "):
        cpu = int(line.split()[1])
doc = json.load(open(sys.argv[2]))
names = {f["id"]: f["name"] for f in doc["functions"]}
waiter = [f for f in doc["functions"] if f["name"] == "waiter()"][0]
active, off = waiter["active_ns"], waiter["off_cpu_ns"]
if cpu and 0.5 * cpu <= active <= 2.0 * cpu:
    print("waiter active within 2x of its thread's CPU time")
else:
    print("waiter active %d ns, the thread's CPU time %s ns" % (active, cpu))
# The program slept 300 ms after the waiter blocked.
if off >= 250e6:
    print("waiter off-cpu covers the wait")
else:
    print("waiter off-cpu %d ns" % off)
over = [t["tid"] for t in doc["threads"] if t.get("exceeds_cpu")]
known = [t for t in doc["threads"] if t.get("cpu_ns") is not None]
if not over and known:
    print("no thread over its CPU time")
else:
    print("threads over their CPU time: %s; %d with a CPU time" % (over, len(known)))
