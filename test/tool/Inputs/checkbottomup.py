#!/usr/bin/env python3
"""Checks the "bottom_up" object of a report --json document: parents
before children, each node's children plus the paths ending there sum to its
self time (no truncation), the roots to the document's total; prints a few
paths with their time and share for FileCheck."""
import json
import sys

doc = json.load(open(sys.argv[1]))
names = [f["name"] for f in doc["functions"]]
nodes = doc["bottom_up"]["nodes"]
kids = {}
path = {}
roots = 0
total = 0.0
for n in nodes:
    assert n["id"] == len(path), "pre-order ids"
    if n["parent"] is None:
        roots += 1
        total += n["self_active_ns"]
        path[n["id"]] = names[n["function"]]
    else:
        assert n["parent"] < n["id"], "parent first"
        kids.setdefault(n["parent"], []).append(n)
        path[n["id"]] = path[n["parent"]] + "<-" + names[n["function"]]
print("nodes", len(nodes), "roots", roots, "total %g = %g" %
      (total, doc["total_self_active_ns"]))
for n in nodes:
    print(path[n["id"]], "%g" % n["self_active_ns"], "%.4f" % n["share"])
for n in nodes:
    s = sum(k["self_active_ns"] for k in kids.get(n["id"], [])) + n["ends_ns"]
    assert abs(s - n["self_active_ns"]) < 1e-6, (path[n["id"]], s)
    assert not n["truncated"]
print("sums ok")
