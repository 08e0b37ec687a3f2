#!/usr/bin/env python3
"""Cuts a real mode=trace profile with export --from/--to and checks the
result: usage trace-range.py ACTIVETIME RAW. Takes the middle third of the
traced span from the unfiltered Chrome export, exports that range, and
checks that every slice begins and ends inside it, that each thread's
slices nest (every E closes the innermost open B of the same name), and
that main, running across both bounds, was clipped to them. Prints one line
per check for FileCheck (no timing figures)."""
import json
import subprocess
import sys

tool, raw = sys.argv[1], sys.argv[2]


def chrome(*args):
    out = subprocess.check_output([tool, "export", "--format=chrome"] +
                                  list(args) + [raw], stderr=subprocess.DEVNULL)
    return [e for e in json.loads(out)["traceEvents"] if e["ph"] in "BE"]


full = chrome()
t0 = min(e["ts"] for e in full) * 1000
t1 = max(e["ts"] for e in full) * 1000
lo = int(t0 + (t1 - t0) / 3)
hi = int(t0 + 2 * (t1 - t0) / 3)
cut = chrome("--from=%dns" % lo, "--to=%dns" % hi)
print("slices: %s" % ("fewer" if len(cut) < len(full) else "NOT fewer"))
# One tick of slack: the bounds are converted to the process's ticks.
inside = all(lo - 1 <= e["ts"] * 1000 <= hi + 1 for e in cut)
print("inside the range: %s" % inside)
stacks = {}
nested = True
for e in cut:
    s = stacks.setdefault(e["tid"], [])
    if e["ph"] == "B":
        s.append(e["name"])
    elif not s or s.pop() != e["name"]:
        nested = False
nested = nested and all(not s for s in stacks.values())
print("nested and closed: %s" % nested)
mains = [e for e in cut if e["name"] == "main"]
print("main clipped: %s" % (len(mains) == 2 and
                            abs(mains[0]["ts"] * 1000 - lo) <= 1 and
                            abs(mains[1]["ts"] * 1000 - hi) <= 1))
