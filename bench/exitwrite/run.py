#!/usr/bin/env python3
#===- bench/exitwrite/run.py - memory of the exit-time profile write -------===#
#
# Part of ActiveTime. What writing the profile at exit adds to the program's
# peak memory, against the profile's size. bench/scale/deep.c, built with
# the profiler, prints its resident memory at the end of main and resets
# the kernel's peak (DEEP_RSS); a destructor, run after the exit-time write,
# prints the peak since: their difference is the write's own memory. Each
# case runs twice in a round:
#   file    output= a regular file: the image is streamed into the
#           temporary beside it (the default path)
#   device  output=/dev/null: a device is written through, the image
#           streamed into a nameless file in $TMPDIR first and copied
# Cases (ACTIVETIME_OPTIONS=timing_ratio=0, every call a call-tree node):
#   broad        deep broad 4 10: 1,398,100 nodes, profile mode
#   broad-trace  the same, mode=trace, 2.8 M events
#   chain        deep chain 200000, profile mode
# Target (issue "Scale and limits"): growth <= 10% of the profile + a fixed
# buffer (2 x the writer's 8 MiB trim step).
#
# usage: run.py --build-dir BUILD [--rounds 3] [--keep DIR]
#
#===----------------------------------------------------------------------===#

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "scale", "deep.c")
FIXED_MIB = 16

CASES = [
    ("broad", ["broad", "4", "10"], ""),
    ("broad-trace", ["broad", "4", "10"],
     "mode=trace:trace_buffer_events=4194304"),
    ("chain", ["chain", "200000"], ""),
]


def run_case(exe, args, opts, output, cwd):
    env = dict(os.environ)
    env["DEEP_RSS"] = "1"
    env["ACTIVETIME_OPTIONS"] = "timing_ratio=0:output=%s%s" % (
        output, ":" + opts if opts else "")
    p = subprocess.Popen([exe] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    p.stderr.close()
    if status != 0:
        sys.exit("exitwrite: %s %s failed (%d): %s" % (exe, args, status, err))
    m = re.search(r"rss-at-exit (\d+) kB", err)
    p = re.search(r"peak-after-write (\d+) kB", err)
    if not m or not p:
        sys.exit("exitwrite: no rss-at-exit or peak-after-write line: " + err)
    return int(p.group(1)) / 1024.0, int(m.group(1)) / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--keep")
    a = ap.parse_args()
    cc = os.path.join(os.path.abspath(a.build_dir), "bin", "activetime-clang")
    work = a.keep or tempfile.mkdtemp(prefix="at-exitwrite-")
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "deep")
    subprocess.check_call([cc, "-O2", "-g", SRC, "-o", exe, "-lpthread"])
    print("case          profile MiB   file: growth MiB  % of profile"
          "   device: growth MiB  % of profile   within target")
    failed = False
    for name, args, opts in CASES:
        grow = {"file": [], "device": []}
        size = 0
        for _ in range(a.rounds):
            raw = os.path.join(work, name + ".raw")
            peak, end = run_case(exe, args, opts, raw, work)
            grow["file"].append(peak - end)
            size = os.path.getsize(raw) / 2**20
            peak, end = run_case(exe, args, opts, "/dev/null", work)
            grow["device"].append(peak - end)
        gf = statistics.median(grow["file"])
        gm = statistics.median(grow["device"])
        ok = max(gf, gm) <= 0.10 * size + FIXED_MIB
        failed |= not ok
        print("%-12s %12.1f %18.1f %13.1f%% %20.1f %13.1f%%   %s" %
              (name, size, gf, 100 * gf / size, gm, 100 * gm / size,
               "yes" if ok else "NO"))
    if not a.keep:
        shutil.rmtree(work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
