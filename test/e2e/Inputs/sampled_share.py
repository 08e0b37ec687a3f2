#!/usr/bin/env python3
"""A counted function's share in the time report against its share of the
sampled on-CPU time: `sampled_share.py NAME < export.json` prints

  NAME time=above50|below50 sampled=above50|below50 counted=yes|no close=yes|no

for the function whose short name is NAME. "time" is its self-active share
in the report (report.functions' self_active_share), "sampled" its on-CPU
time in the samples (every path that ends in it, its [counted] frames
included) over all on-CPU sampled time; "counted" whether a sampled path
ends in a [counted] frame of it; "close" whether the two shares differ by
less than 15 points. The shares themselves go to stderr for the log."""
import json
import sys

name = sys.argv[1]
doc = json.load(sys.stdin)
fns = doc["report"]["functions"]
ids = [f["id"] for f in fns if f["short_name"] == name]
assert len(ids) == 1, "no single function %s" % name
fid = ids[0]
time_share = fns[fid]["self_active_share"]
s = doc["samples"]
on = sum(p["on_cpu_ns"] for p in s["paths"] if p["functions"][-1] == fid)
counted = any(p["counted"] and p["functions"][-1] == fid for p in s["paths"])
sampled = on / s["on_cpu_ns"] if s["on_cpu_ns"] > 0 else 0.0
sys.stderr.write("%s: time report %.3f, sampled on-CPU %.3f\n" % (name, time_share, sampled))
half = lambda x: "above50" if x > 0.5 else "below50"
yn = lambda c: "yes" if c else "no"
print("%s time=%s sampled=%s counted=%s close=%s" % (
    name, half(time_share), half(sampled), yn(counted),
    yn(abs(time_share - sampled) < 0.15)))
