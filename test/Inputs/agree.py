#!/usr/bin/env python3
"""Compares the offline active-time generator with the online accounting of
the same run: `agree.py REPORT.json ACTIVE_TIME.json` prints, per function,
"NAME agree" when the outermost-invocation totals of `activetime active-time`
match the report's inclusive active time within 2 ticks or 0.1%, and
"NAME differ ONLINE OFFLINE" (ticks) otherwise, and "NAME counted" for a
function with counted calls (no inclusive active time of all its calls;
mode=trace times every call, so it does not happen there)."""
import json
import sys

report = json.load(open(sys.argv[1]))
offline = json.load(open(sys.argv[2]))
rate = offline["tick_rate"]
totals = {}
for r in offline["results"]:
    if r["active_ticks"] is None:
        print("%s offline-unavailable" % r["portion"])
        continue
    totals[r["portion"]] = totals.get(r["portion"], 0.0) + r["active_ticks"]
for f in sorted(report["functions"], key=lambda f: f["name"]):
    if f["active_ns"] is None:
        print("%s counted" % f["name"])
        continue
    # The measured figure where the report printed it clamped.
    online = f.get("clamped", {}).get("active_ns", f["active_ns"]) * rate / 1e9
    off = totals.get(f["name"])
    if off is None:
        print("%s missing-offline" % f["name"])
    elif abs(online - off) <= max(2.0, 1e-3 * abs(off)):
        print("%s agree" % f["name"])
    else:
        print("%s differ %.2f %.2f" % (f["name"], online, off))
