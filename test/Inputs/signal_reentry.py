#!/usr/bin/env python3
"""Checks test/e2e/signal-reentry.c: reads the program's output (work calls,
signals delivered) and `activetime report --json`, prints one line per
invariant for FileCheck."""
import json
import sys

out = open(sys.argv[1]).read().split()
work, signals = int(out[1]), int(out[3])
doc = json.load(open(sys.argv[2]))
calls = {f["name"]: f["calls"] for f in doc["functions"]}
dropped = doc["counters"]["dropped_events"]
print("work calls match: %s" % (calls.get("work", 0) == work))
print("handler calls + dropped/4 == signals: %s" %
      (dropped % 4 == 0 and calls.get("on_signal", 0) + dropped // 4 == signals))
print("some handler calls recorded: %s" % (calls.get("on_signal", 0) > 0))
print("unmatched exits: %d" % doc["counters"]["unmatched_exits"])
