#!/usr/bin/env python3
"""Prints, from `activetime report --json` (read from stdin), one line per
function sorted by name:

  NAME how=HOW calls=CALLS counted=COUNTED timed=TIMED nodes=N maxnode=M rel=ok

CALLS and COUNTED are the flat row's "calls" and "counted_calls"; TIMED is the
sum of the calls of the function's call-tree nodes that are timed frames (the
synthetic "[counted]" nodes, whose calls are null, are skipped), N their
number and M the largest of them; rel is "ok" when CALLS == COUNTED + TIMED
exactly (every call is either timed in a node or only counted) and
"bad(...)" otherwise. With --threads, then one line per function of each
thread of the "threads" section (only function NAME with --func NAME),
sorted by name, then calls (thread order depends on the run):

  thread NAME how=HOW calls=CALLS counted=COUNTED
"""
import json
import sys

doc = json.load(sys.stdin)
args = sys.argv[1:]
names = {f["id"]: f["name"] for f in doc["functions"]}
timed = {}
nodes = {}
maxnode = {}
for n in doc["tree"]["nodes"]:
    if n["calls"] is None:
        continue
    f = n["function"]
    timed[f] = timed.get(f, 0) + n["calls"]
    nodes[f] = nodes.get(f, 0) + 1
    maxnode[f] = max(maxnode.get(f, 0), n["calls"])
for f in sorted(doc["functions"], key=lambda f: f["name"]):
    i = f["id"]
    t = timed.get(i, 0)
    rel = "ok" if f["calls"] == f["counted_calls"] + t else "bad(%d != %d + %d)" % (
        f["calls"], f["counted_calls"], t)
    print("%s how=%s calls=%d counted=%d timed=%d nodes=%d maxnode=%d rel=%s" % (
        f["name"], f["how"], f["calls"], f["counted_calls"], t, nodes.get(i, 0),
        maxnode.get(i, 0), rel))
if "--threads" in args:
    only = None
    if "--func" in args:
        only = args[args.index("--func") + 1]
    rows = []
    for th in doc["threads"]:
        for tf in th["functions"]:
            name = names[tf["function"]]
            if only is not None and name != only:
                continue
            rows.append((name, tf["calls"], tf["how"], tf["counted_calls"]))
    for name, calls, how, counted in sorted(rows):
        print("thread %s how=%s calls=%d counted=%d" % (name, how, calls, counted))
