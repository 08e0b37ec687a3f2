#!/usr/bin/env python3
"""Checks test/e2e/signal-reentry.c: reads the program's output (work calls,
signals delivered) and `activetime report --json`, prints one line per
invariant for FileCheck. Every call is counted inline, before its probe
runs, so the handler's calls equal the signals delivered whether their
probe events were recorded, dropped (a handler that interrupted a probe:
2 events per timed function it ran) or never made (the function was
counted by then)."""
import json
import sys

out = open(sys.argv[1]).read().split()
work, signals = int(out[1]), int(out[3])
doc = json.load(open(sys.argv[2]))
calls = {f["name"]: f["calls"] for f in doc["functions"]}
counted = {f["name"]: f.get("counted_calls", 0) for f in doc["functions"]}
dropped = doc["counters"]["dropped_events"]
print("work calls match: %s" % (calls.get("work", 0) == work))
print("handler calls == signals: %s" % (calls.get("on_signal", 0) == signals and
                                        calls.get("handler_leaf", 0) == signals))
print("dropped events within 4 per signal: %s" % (0 <= dropped <= 4 * signals))
print("some handler calls recorded: %s" %
      (calls.get("on_signal", 0) - counted.get("on_signal", 0) > 0))
print("unmatched exits: %d" % doc["counters"]["unmatched_exits"])
