#!/usr/bin/env python3
"""Prints the call slices (complete events but the off-CPU ones) of a
Chrome trace on stdin: tid, phase, name, begin and end in ns."""
import json,sys
d=json.load(sys.stdin)
for e in d['traceEvents']:
    if e['ph'] == 'X' and e.get('cat') != 'off-cpu':
        print(e['tid'], e['ph'], e['name'], round(e['ts']*1000),
              round((e['ts'] + e['dur'])*1000))
