#!/usr/bin/env python3
"""Prints the flat profile of `activetime report --json` (read from stdin) as
"CALLS NAME" lines sorted by name: every function's exact call count, timed
or counted, independent of the order the report sorts rows in. With --how
each line also gets the row's "how" (timed|counted) and its counted_calls:
"CALLS NAME HOW COUNTED"."""
import json
import sys

doc = json.load(sys.stdin)
how = "--how" in sys.argv[1:]
for f in sorted(doc["functions"], key=lambda f: f["name"]):
    line = "%d %s" % (f["calls"], f["name"])
    if how:
        line += " %s %d" % (f["how"], f["counted_calls"])
    print(line)
