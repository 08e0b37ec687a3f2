#!/usr/bin/env python3
"""Cuts a real mode=trace profile with export --from/--to and checks the
result: usage trace-range.py ACTIVETIME RAW. Takes the middle third of the
traced span from the unfiltered Chrome export, exports that range, and
checks that every call slice begins and ends inside it, that each thread's
slices nest (each within the innermost one open where it begins), and that
main, running across both bounds, was clipped to them. Prints one line
per check for FileCheck (no timing figures)."""
import json
import subprocess
import sys

tool, raw = sys.argv[1], sys.argv[2]


def chrome(*args):
    """The call slices (complete events but the off-CPU ones), in ns:
    (tid, name, begin, end)."""
    out = subprocess.check_output([tool, "export", "--format=chrome"] +
                                  list(args) + [raw], stderr=subprocess.DEVNULL)
    return [(e["tid"], e["name"], e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000)
            for e in json.loads(out)["traceEvents"]
            if e["ph"] == "X" and e.get("cat") != "off-cpu"]


full = chrome()
t0 = min(b for _, _, b, _ in full)
t1 = max(e for _, _, _, e in full)
lo = int(t0 + (t1 - t0) / 3)
hi = int(t0 + 2 * (t1 - t0) / 3)
cut = chrome("--from=%dns" % lo, "--to=%dns" % hi)
print("slices: %s" % ("fewer" if len(cut) < len(full) else "NOT fewer"))
# One tick of slack: the bounds are converted to the process's ticks.
inside = all(lo - 1 <= b and e <= hi + 1 for _, _, b, e in cut)
print("inside the range: %s" % inside)
# Per thread, in the order they begin (enclosing first), each slice lies
# within the innermost one still open (1 ns: rounding).
nested = True
for tid in {t for t, _, _, _ in cut}:
    open_ends = []
    for _, _, b, e in sorted((s for s in cut if s[0] == tid),
                             key=lambda s: (s[2], -s[3])):
        while open_ends and open_ends[-1] <= b:
            open_ends.pop()
        if open_ends and e > open_ends[-1] + 1:
            nested = False
        open_ends.append(e)
print("nested and closed: %s" % nested)
mains = [s for s in cut if s[1] == "main"]
print("main clipped: %s" % (len(mains) == 1 and abs(mains[0][2] - lo) <= 1 and
                            abs(mains[0][3] - hi) <= 1))
