#!/usr/bin/env python3
"""Prints the B/E events of a Chrome trace on stdin: tid, phase, name, ns."""
import json,sys
d=json.load(sys.stdin)
for e in d['traceEvents']:
    if e['ph'] in 'BE': print(e['tid'], e['ph'], e['name'], round(e['ts']*1000))
