#!/usr/bin/env python3
"""Structural checks of a mode=trace run against a profile-mode run of the
same program, none of them on timings:

  tracemode.py TRACE_REPORT.json PROFILE_REPORT.json

Prints, for the trace run's process and each of its traced threads, whether
the trace buffers' figures are there and coherent ("buffers ok": bytes made
ready cover the events kept, at 24 bytes an event in the runtime; a way of
making them ready is named; the time is reported and said to be removed),
then per function "NAME calls equal N" when both runs counted the same calls
(exact in both modes), else "NAME calls differ TRACE PROFILE"."""
import json
import sys

trace = json.load(open(sys.argv[1]))
prof = json.load(open(sys.argv[2]))


def buffers(label, t):
    ok = (t["buffer_bytes"] >= 24 * t["events"] and t["buffer_ns"] > 0 and
          (t["buffer_populate"] or t["buffer_touch"]) and t["buffer_removed"])
    print("%s buffers %s" % (label, "ok" if ok else "WRONG %r" % t))


for p in trace["processes"]:
    buffers("process", p["trace"])
for th in trace["threads"]:
    buffers("thread", th["trace"])
calls = {f["name"]: f["calls"] for f in prof["functions"]}
for f in sorted(trace["functions"], key=lambda f: f["name"]):
    other = calls.get(f["name"])
    if other == f["calls"]:
        print("%s calls equal %d" % (f["name"], f["calls"]))
    else:
        print("%s calls differ %s %s" % (f["name"], f["calls"], other))
