#!/usr/bin/env python3
"""Reads `activetime report --json --call-sites --callers` and checks the two
views against each other: for every function, the rows of --call-sites and
the callers of --callers are the same rows (caller, location, timed calls,
counted estimate), no two of a function's rows share caller and printed
location, and the timed calls of a function's rows add up to its timed
calls (the flat calls less the counted ones). Prints one line per check."""
import json
import sys

d = json.load(sys.stdin)
sites = {}
for r in d["call_sites"]:
    sites.setdefault(r["callee"], []).append(
        (r["caller_kind"], r["caller"], r["location"], r["calls"],
         round(r["counted_calls_estimate"], 3)))
callers = {}
for g in d["call_graph"]:
    callers[g["name"]] = [
        (r["caller_kind"], r["name"], r["location"], r["calls"],
         round(r["counted_calls_estimate"], 3)) for r in g["callers"]]
agree = all(sorted(sites.get(f, [])) == sorted(callers[f]) for f in callers)
print("views agree" if agree else "views DIFFER")
dups = [(f, k) for f, rows in sites.items()
        for k in {(r[1], r[2]) for r in rows}
        if sum(1 for r in rows if (r[1], r[2]) == k) > 1]
print("no duplicate rows" if not dups else "DUPLICATE rows: %r" % dups)
bad = []
for g in d["call_graph"]:
    timed = g["calls"] - g["counted_calls"]
    if sum(r["calls"] for r in g["callers"]) != timed:
        bad.append(g["name"])
print("timed calls add up" if not bad else "timed calls DO NOT add up: %r"
      % bad)
