#!/usr/bin/env python3
"""Prints the call tree of `activetime report --json` (read from stdin) as
sorted "CALLS PATH" lines, PATH being the function names from the root joined
by " > ". Sibling order in the report depends on timing; this form does not,
so end-to-end tests can check the exact shape and call counts. A counted
function's synthetic node ("how": "counted", "calls": null: its self time
inside a timed caller, from code samples, which depend on timing) is left
out."""
import json
import sys

doc = json.load(sys.stdin)
names = {f["id"]: f["name"] for f in doc["functions"]}
nodes = {n["id"]: n for n in doc["tree"]["nodes"]}
lines = []
for n in doc["tree"]["nodes"]:
    if n["calls"] is None:
        continue
    path = []
    cur = n
    while cur is not None:
        path.append(names[cur["function"]])
        cur = nodes.get(cur["parent"]) if cur["parent"] is not None else None
    lines.append("%d %s" % (n["calls"], " > ".join(reversed(path))))
for line in sorted(lines, key=lambda l: l.split(" ", 1)[1]):
    print(line)
