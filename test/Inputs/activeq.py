#!/usr/bin/env python3
"""Summarizes `activetime report --json` (stdin) as qualitative facts, one
line per function, for end-to-end tests that must not depend on timing:

  NAME calls=N active<elapsed=yes|no off-cpu=yes|no overhead=yes|no
       voluntary=yes|no involuntary=yes|no

and one line per thread: "thread TID source=SOURCE off-cpu=yes|no". A
function with counted calls has no per-call figures (null): its line is
"NAME calls=N counted".
"""
import json
import sys

doc = json.load(sys.stdin)
yn = lambda b: "yes" if b else "no"
for f in sorted(doc["functions"], key=lambda f: f["name"]):
    if f["how"] == "counted":
        print("%s calls=%d counted" % (f["name"], f["calls"]))
        continue
    print("%s calls=%d active<elapsed=%s off-cpu=%s overhead=%s voluntary=%s involuntary=%s" % (
        f["name"], f["calls"], yn(f["active_ns"] < f["elapsed_ns"]), yn(f["off_cpu_ns"] > 0),
        yn(f["overhead_ns"] > 0), yn(f["voluntary_switches"] > 0), yn(f["involuntary_switches"] > 0)))
for t in doc["threads"]:
    print("thread source=%s off-cpu=%s" % (t["switch_source"], yn(t["off_cpu_ns"] > 0)))
