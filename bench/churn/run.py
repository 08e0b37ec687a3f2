#!/usr/bin/env python3
#===- bench/churn/run.py - thread churn against the plain build -----------===#
#
# Part of ActiveTime. A program that creates and joins 8 threads at a time
# (bench/churn/churn.c) runs for --seconds in each variant, in turn per
# round:
#   plain     clang-19 -O2 -g, no profiler: the creation rate to keep
#   profile   bin/activetime-clang -O2 -g, default options (code samples)
#   sampled   the same with ACTIVETIME_OPTIONS=sample=1 (the sampler too)
#   eager     perf_after_us=0: every thread gets its perf rings at its start
#             (by default only once it has lived 1 ms, which hardly any of
#             these threads does); a reference, not held to the targets
# Per variant, medians over the rounds: threads created per second (and
# over plain's in the same round), the growth of the process's resident
# memory over the run, the CPU time of the profiler's own threads over the
# run's wall time, and the raw profile's size. Targets: rate >= 0.5 of
# plain's, growth <= 64 MiB, profiler threads <= 5% of a CPU; exit status 1
# when the default options or sample=1 miss one.
#
# usage: run.py --build-dir BUILD [--seconds S] [--rounds N] [--keep DIR]
#
#===----------------------------------------------------------------------===#

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = [("plain", None), ("profile", ""), ("sampled", "sample=1"),
            ("eager", "perf_after_us=0")]
REFERENCES = ("plain", "eager")  # not held to the targets
MIN_RATE, MAX_GROWTH_MIB, MAX_SHARE = 0.5, 64.0, 0.05


def build(build_dir, work):
    src = os.path.join(HERE, "churn.c")
    plain, prof = os.path.join(work, "churn-plain"), os.path.join(work, "churn")
    subprocess.check_call(["clang-19", "-O2", "-g", src, "-o", plain,
                           "-lpthread"])
    subprocess.check_call([os.path.join(build_dir, "bin", "activetime-clang"),
                           "-O2", "-g", src, "-o", prof, "-lpthread"])
    return plain, prof


def run(exe, options, seconds, work):
    env = dict(os.environ)
    raw = os.path.join(work, "churn.raw")
    if os.path.exists(raw):
        os.unlink(raw)
    if options is not None:
        env["ACTIVETIME_OPTIONS"] = ":".join(
            x for x in ("output=" + raw, options) if x)
    out = subprocess.run([exe, str(seconds)], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    fig = dict(zip(out[0::2], out[1::2]))
    return {"rate": float(fig["rate"]), "threads": int(fig["threads"]),
            "growth": float(fig["rss_growth_mib"]),
            "share": float(fig["profiler_cpu_share"]),
            "raw": os.path.getsize(raw) if os.path.exists(raw) else 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--keep")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="activetime-churn-")
    os.makedirs(work, exist_ok=True)
    plain, prof = build(os.path.abspath(a.build_dir), work)
    res = {name: [] for name, _ in VARIANTS}
    for r in range(a.rounds):
        for name, opts in VARIANTS:
            fig = run(plain if opts is None else prof, opts, a.seconds, work)
            res[name].append(fig)
            print("round %d %-8s %s" % (r + 1, name, fig), flush=True)
    ok = True
    print("\n%-8s %10s %8s %12s %10s %9s" % ("variant", "threads/s", "x plain",
                                             "growth MiB", "profiler", "raw MiB"))
    for name, _ in VARIANTS:
        rs = res[name]
        rate = statistics.median(f["rate"] for f in rs)
        ratio = statistics.median(f["rate"] / p["rate"]
                                  for f, p in zip(rs, res["plain"]))
        growth = statistics.median(f["growth"] for f in rs)
        share = statistics.median(f["share"] for f in rs)
        raw = statistics.median(f["raw"] for f in rs) / 2**20
        print("%-8s %10.0f %8.2f %12.1f %9.1f%% %9.2f" % (
            name, rate, ratio, growth, 100 * share, raw))
        if name not in REFERENCES and (ratio < MIN_RATE or
                                       growth > MAX_GROWTH_MIB or
                                       share > MAX_SHARE):
            print("  target missed: rate >= %.2f x plain, growth <= %.0f MiB, "
                  "profiler <= %.0f%%" % (MIN_RATE, MAX_GROWTH_MIB,
                                          100 * MAX_SHARE))
            ok = False
    if not a.keep:
        shutil.rmtree(work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
