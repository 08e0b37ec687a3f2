#!/usr/bin/env python3
#===- bench/memlimit/run.py - mode=trace under a memory limit --------------===#
#
# Part of ActiveTime. Runs threads8.c, built with the profiler, in a memory
# cgroup of --limit-mib (default 512) with mode=trace and buffers far larger
# than the limit (trace_buffer_events=16777216 per thread: 384 MiB each):
#   default      the trace memory budget as it comes (a quarter of the
#                cgroup's limit)
#   no-budget    trace_memory_mb=100000: no budget, as before it existed
# and prints per variant the exit status, the lines of output kept, the
# profile's size, the events kept and dropped, and the peak RSS. Needs root
# and a writable memory cgroup (v1 /sys/fs/cgroup/memory or v2
# /sys/fs/cgroup with the memory controller); says so and exits 0 without.
#
# usage: run.py --build-dir BUILD [--limit-mib 512]
#
#===----------------------------------------------------------------------===#

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def make_cgroup(limit):
    """A new memory cgroup limited to `limit` bytes: its procs file."""
    for base, knob in (("/sys/fs/cgroup/memory", "memory.limit_in_bytes"),
                       ("/sys/fs/cgroup", "memory.max")):
        if not os.path.exists(os.path.join(base, knob if knob.endswith(
                "bytes") else "cgroup.controllers")):
            continue
        d = os.path.join(base, "activetime-memlimit-%d" % os.getpid())
        try:
            os.mkdir(d)
            with open(os.path.join(d, knob), "w") as f:
                f.write(str(limit))
            return d
        except OSError:
            continue
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--limit-mib", type=int, default=512)
    a = ap.parse_args()
    cg = make_cgroup(a.limit_mib << 20)
    if not cg:
        print("memlimit: no writable memory cgroup here (root and cgroup "
              "v1 memory or v2 needed): nothing measured")
        return 0
    build = os.path.abspath(a.build_dir)
    work = tempfile.mkdtemp(prefix="at-memlimit-")
    exe = os.path.join(work, "threads8")
    subprocess.check_call([os.path.join(build, "bin", "activetime-clang"),
                           "-O1", "-g", os.path.join(HERE, "threads8.c"),
                           "-o", exe, "-lpthread"])
    print("limit %d MiB; variant, status, output lines, profile MiB, events "
          "kept, dropped, peak RSS MiB" % a.limit_mib)
    try:
        for name, extra in (("default", ""),
                            ("no-budget", ":trace_memory_mb=100000")):
            raw = os.path.join(work, name + ".raw")
            out = os.path.join(work, name + ".out")
            opts = ("mode=trace:trace_buffer_events=16777216:output=%s%s"
                    % (raw, extra))
            cmd = ("echo $$ > %s/cgroup.procs && ACTIVETIME_OPTIONS=%s "
                   "/usr/bin/time -f 'peak %%M' %s > %s" % (cg, opts, exe, out))
            r = subprocess.run(["bash", "-c", cmd], stderr=subprocess.PIPE,
                               text=True)
            m = re.search(r"peak (\d+)", r.stderr)
            with open(out) as f:
                lines = len(f.readlines())
            size = kept = dropped = "-"
            if os.path.exists(raw):
                size = "%.1f" % (os.path.getsize(raw) / 2**20)
                rep = subprocess.run(
                    [os.path.join(build, "bin", "activetime"), "report", raw],
                    stdout=subprocess.PIPE, text=True).stdout
                t = re.search(r"traces: .*?: (\d+) events.*?DROPPED: (\d+) "
                              r"events", rep)
                if t:
                    kept, dropped = t.group(1), t.group(2)
            print("%-10s %4d %3d %8s %10s %10s %8s" % (
                name, r.returncode, lines, size, kept, dropped,
                "%.0f" % (int(m.group(1)) / 1024) if m else "killed"))
    finally:
        try:
            os.rmdir(cg)  # empty once its processes ended
        except OSError:
            pass
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
