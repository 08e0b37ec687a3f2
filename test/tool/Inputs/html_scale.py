#!/usr/bin/env python3
"""Writes a mkraw description (test/Inputs/mkraw.py) of a profile larger
than the HTML pages draw whole: main calling a chain --depth levels deep
(f, g, h in turn, 1 us of self time each, every level a call path of its
own) and --wide leaves (w0, w1, ..., 1 ns each), with on-CPU samples at the
chain's bottom and halfway and an off-CPU one at its top. --bottom-ns T
adds T ns of self time to the chain's last level (every level of the chain
then as wide as T at least); --slower F multiplies the chain's times (a
diff's NEW side).

usage: html_scale.py --depth D --wide N [--bottom-ns T] [--slower F]
                     [--pid P] -o OUT.json
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("--depth", type=int, required=True)
ap.add_argument("--wide", type=int, default=0)
ap.add_argument("--bottom-ns", type=int, default=0)
ap.add_argument("--slower", type=float, default=1)
ap.add_argument("--pid", type=int, default=1)
ap.add_argument("-o", required=True)
args = ap.parse_args()

US = int(1000 * args.slower)  # the chain's self time per level, ticks = ns
BOTTOM = int(args.bottom_ns * args.slower)
# Function ids: 0 main, 1-3 f g h, 4.. the leaves.
functions = ["main", "f", "g", "h"] + ["w%d" % i for i in range(args.wide)]
main_incl = 1000 + args.wide + args.depth * US + BOTTOM
nodes = [[-1, 0, 1, main_incl, 1000]]
nodes += [[0, 4 + i, 1, 1, 1] for i in range(args.wide)]
first = len(nodes)
for d in range(args.depth):
    incl = (args.depth - d) * US + BOTTOM
    excl = US + (BOTTOM if d == args.depth - 1 else 0)
    nodes.append([first + d - 1 if d else 0, 1 + d % 3, 1, incl, excl])
bottom, half = len(nodes) - 1, first + args.depth // 2
spec = {"processes": [{
    "tick_rate": 1000000000, "start_tick": 0, "end_tick": main_incl + 1000,
    "pid": args.pid, "exe": "/bin/scale",
    "overhead": {"enter": 3, "exit": 2.5, "batches": 5, "spread_permille": 12},
    "modules": [{"hash": 1, "name": "scale.c", "path": "/bin/scale",
                 "functions": [{"name": f, "file": "/src/scale.c", "line": i + 1}
                               for i, f in enumerate(functions)]}],
    "threads": [{"tid": args.pid, "name": "scale", "start_tick": 0,
                 "end_tick": main_incl + 1000, "switch_source": 1, "nodes": nodes}],
    "samples": {"interval": 1000000, "start_tick": 0, "end_tick": main_incl,
                "sweeps": 3, "flags": 3,
                "samples": [[1000, 2000000, 0, bottom, 0, args.depth + 1],
                            [2000, 1000000, 0, half, 0, args.depth // 2 + 1],
                            [3000, 1000000, 0, first, 1, 2]]}}]}
with open(args.o, "w") as f:
    json.dump(spec, f)
