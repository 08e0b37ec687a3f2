#!/usr/bin/env python3
"""Reads a report --bottom-up --json document on stdin; for the function
named in argv[1], says which caller's path carries the larger part of its
self time and checks that its callers' parts and the paths ending at it
sum to its self time."""
import json
import sys

doc = json.load(sys.stdin)
names = [f["name"] for f in doc["functions"]]
nodes = doc["bottom_up"]["nodes"]
root = next(n for n in nodes
            if n["parent"] is None and names[n["function"]] == sys.argv[1])
kids = {names[n["function"]]: n["self_active_ns"] for n in nodes
        if n["parent"] == root["id"]}
first = max(kids, key=kids.get)
print("%s <- %s larger" % (sys.argv[1], first))
total = sum(kids.values()) + root["ends_ns"]
assert abs(total - root["self_active_ns"]) <= 1e-6 * abs(total) + 1e-3, kids
print("shares sum to %s's self time" % sys.argv[1])
