#!/usr/bin/env python3
#===- bench/merge/run.py - `activetime merge` of thousands of profiles ----===#
#
# Part of ActiveTime. Builds bench/merge/forks.c with the profiler and runs
# it so that each of its forked children writes its own small profile
# (1,000 and 10,000 of them, default options), then merges each set under
# /usr/bin/time with the default -j (every core) and with -j 1, printing
# seconds, peak RSS, the merged file's size, and the growth from 1,000 to
# 10,000: the time ratio (linear is 10) and the peak RSS above a one-file
# merge (the tool's own baseline) against the merged result's size.
#
# usage: run.py --build-dir BUILD [--counts 1000,10000] [--keep DIR]
#
#===----------------------------------------------------------------------===#
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def timed(cmd):
    """Runs cmd under /usr/bin/time: (seconds, peak RSS in KiB)."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd[:3]), r.stderr))
    sec, kib = r.stderr.strip().splitlines()[-1].split()
    return float(sec), int(kib)


def make_profiles(forks, out, n):
    os.makedirs(out)
    env = dict(os.environ, ACTIVETIME_OPTIONS="output=%s/%%p.raw" % out)
    subprocess.run([forks, str(n)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    files = sorted(os.path.join(out, f) for f in os.listdir(out))
    # The parent's own profile is one more process of the same binary.
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--counts", default="1000,10000")
    ap.add_argument("--keep")
    a = ap.parse_args()
    bin_dir = os.path.join(a.build_dir, "bin")
    tool = os.path.join(bin_dir, "activetime")
    work = a.keep or tempfile.mkdtemp(prefix="at-bench-merge-")
    os.makedirs(work, exist_ok=True)
    forks = os.path.join(work, "forks")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forks.c")
    subprocess.run([os.path.join(bin_dir, "activetime-clang"), "-O2", src,
                    "-o", forks], check=True)
    rows = {}
    base = None
    for n in [int(c) for c in a.counts.split(",")]:
        files = make_profiles(forks, os.path.join(work, "p%d" % n), n)
        out = os.path.join(work, "m%d.raw" % n)
        if base is None:
            base = timed([tool, "merge", "-o", out, files[0]])[1]
        t, rss = timed([tool, "merge", "-o", out] + files)
        t1, rss1 = timed([tool, "merge", "-j", "1", "-o", out] + files)
        size = os.path.getsize(out)
        rows[n] = (t, rss, t1, rss1, size)
        print("%6d profiles: merged %.1f MiB; default -j %.2f s, peak %.1f "
              "MiB; -j 1 %.2f s, peak %.1f MiB" %
              (len(files), size / 2**20, t, rss / 1024, t1, rss1 / 1024))
    print("one-file merge (the tool's baseline): peak %.1f MiB" % (base / 1024))
    for n, (t, rss, t1, rss1, size) in sorted(rows.items()):
        print("%6d: peak above the baseline %.1f MiB = %.2fx the merged "
              "result" % (n, (rss - base) / 1024, (rss - base) * 1024 / size))
    ns = sorted(rows)
    if len(ns) >= 2:
        lo, hi = ns[0], ns[-1]
        print("time %d/%d: %.1fx (default -j), %.1fx (-j 1); -j speed-up at "
              "%d: %.2fx" % (hi, lo, rows[hi][0] / max(rows[lo][0], 0.01),
                             rows[hi][2] / max(rows[lo][2], 0.01), hi,
                             rows[hi][2] / max(rows[hi][0], 0.01)))
    if not a.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
