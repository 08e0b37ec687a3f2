#!/usr/bin/env python3
"""Stride profiling benchmark.

Builds bench/strides/strides.c three ways and runs them side by side,
alternating builds within each repetition, taking the median of each
workload's kernel time (the program times its kernel itself):

  plain     clang -O2 -g (no plugin): the baseline
  profiled  activetime-clang -O2 -g -mllvm -activetime-strides
  feedback  clang -O2 -g with the pass plugin and
            -mllvm -activetime-prefetch-use=HINTS, where HINTS is
            `activetime export --format=prefetch` of a profiled run of the
            same workload

(1) overhead: profiled / plain, with the default phasing and with every
    execution inspected (ACTIVETIME_OPTIONS=stride_skip=0)   target <= 1.5x
(2) feedback: plain / feedback (best of N runs each, ABBA order; medians
    printed too) on chase-const (nodes at a constant stride the
    compiler cannot see)                                     target >= 1.2x
    and on gather (a[idx[i]], idx a random permutation)      target >= 0.98x
    with identical output. (chase-rand, also irregular, is too noisy on a
    shared machine for a 2 % comparison: its time depends on the huge pages
    each run happens to get.)

usage: run.py --build-dir BUILD [--repeat N] [--keep DIR] [--only PART]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "strides.c")
OVERHEAD = ["chase-const", "chase-rand", "gather", "index3", "struct48"]
FEEDBACK = {"chase-const": 1.2, "gather": 0.98}


def sh(cmd, env=None):
    return subprocess.run(cmd, env=env, check=True, capture_output=True,
                          text=True).stdout


def run(exe, workload, options=None):
    env = dict(os.environ)
    env.pop("ACTIVETIME_OPTIONS", None)
    if options:
        env["ACTIVETIME_OPTIONS"] = options
    out = sh([exe, workload], env=env)
    lines = dict(l.split(" ", 1) for l in out.splitlines())
    run.steps = int(lines.get("steps", 0))
    return lines["checksum"], int(lines["kernel_ns"])


def text_of(exe):
    """The bytes of the executable's .text section."""
    objcopy = os.environ.get("LLVM_OBJCOPY", "llvm-objcopy-19")
    out = exe + ".text"
    sh([objcopy, "-O", "binary", "--only-section=.text", exe, out])
    with open(out, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--only", choices=["overhead", "feedback"],
                    help="run one part only")
    a = ap.parse_args()
    b = os.path.abspath(a.build_dir)
    plugin = os.path.join(b, "lib", "ActiveTime.so")
    wrapper = os.path.join(b, "bin", "activetime-clang")
    tool = os.path.join(b, "bin", "activetime")
    clang = os.environ.get("ACTIVETIME_CLANG", "clang-19")
    work = a.keep or tempfile.mkdtemp(prefix="at-strides-")
    os.makedirs(work, exist_ok=True)
    os.chdir(work)

    plain, prof = os.path.join(work, "plain"), os.path.join(work, "profiled")
    sh([clang, "-O2", "-g", SRC, "-o", plain])
    sh([wrapper, "-O2", "-g", "-mllvm", "-activetime-strides", SRC, "-o", prof])

    # The latency a prefetch has to cover on this machine: the time per node
    # of the random chase, where every node is a dependent DRAM (and TLB)
    # miss. Passed to export; its default is a generic 100 ns.
    lat = []
    for _ in range(3):
        _, n = run(plain, "chase-rand")
        lat.append(n / run.steps)
    latency = statistics.median(lat)
    print("Memory latency (plain chase-rand, ns per node, median of 3): %.1f ns"
          % latency)

    # Feedback builds: one profiled run per workload, its hints, a rebuild.
    fb = {}
    for w in FEEDBACK:
        d = os.path.join(work, "prof-" + w)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        run(prof, w, "output=%s/" % d)
        raw = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".raw")]
        hints = os.path.join(work, "hints-%s.json" % w)
        sh([tool, "export", "--format=prefetch", "--latency-ns=%.1f" % latency,
            "-o", hints] + raw)
        with open(hints) as f:
            h = json.load(f)["hints"]
        exe = os.path.join(work, "feedback-" + w)
        sh([clang, "-O2", "-g", "-fpass-plugin=" + plugin, "-fplugin=" + plugin,
            "-mllvm", "-activetime-prefetch-use=" + hints, SRC, "-o", exe])
        fb[w] = (exe, [x for x in h if x["function"] in ("chase", "gather")])

    # (1) overhead
    if a.only != "feedback":
        overhead(a, plain, prof)
    if a.only != "overhead":
        feedback(a, plain, fb)


def overhead(a, plain, prof):
    print("Overhead of stride profiling (kernel time, median of %d, ratio to "
          "plain -O2):" % a.repeat)
    print("  %-12s %10s %10s %7s %12s %7s" % ("workload", "plain", "default",
                                               "ratio", "inspect-all", "ratio"))
    worst = 0.0
    for w in OVERHEAD:
        t = {"p": [], "d": [], "i": []}
        sums = set()
        for _ in range(a.repeat):
            c, n = run(plain, w); sums.add(c); t["p"].append(n)
            c, n = run(prof, w, "write_profile=0"); sums.add(c); t["d"].append(n)
            c, n = run(prof, w, "write_profile=0:stride_skip=0"); sums.add(c)
            t["i"].append(n)
        if len(sums) != 1:
            sys.exit("error: %s: builds disagree on the checksum %s" % (w, sums))
        m = {k: statistics.median(v) for k, v in t.items()}
        worst = max(worst, m["d"] / m["p"])
        print("  %-12s %8.1fms %8.1fms %6.2fx %10.1fms %6.2fx" % (
            w, m["p"] / 1e6, m["d"] / 1e6, m["d"] / m["p"], m["i"] / 1e6,
            m["i"] / m["p"]))
    print("  worst default-phasing ratio %.2fx (target <= 1.5x): %s" % (
        worst, "met" if worst <= 1.5 else "NOT met"))


def feedback(a, plain, fb):
    print("Prefetch feedback (kernel time, best of %d, speedup = plain / "
          "feedback):" % a.repeat)
    for w, target in FEEDBACK.items():
        exe, hints = fb[w]
        tp, tf = [], []
        for r in range(a.repeat):
            # ABBA order: a drift of the machine's load favours neither.
            for which in ((0, 1) if r % 2 == 0 else (1, 0)):
                if which == 0:
                    cp, n = run(plain, w); tp.append(n)
                else:
                    cf, n = run(exe, w); tf.append(n)
            if cp != cf:
                sys.exit("error: %s: feedback build output differs" % w)
        # The judged figure is the ratio of the minima: on a shared machine
        # interference only ever adds time. The medians are printed too.
        mp, mf = min(tp), min(tf)
        dp, df = statistics.median(tp), statistics.median(tf)
        desc = ", ".join("stride %d, shortest iteration %.1f ns, %d iterations "
                         "ahead" % (x["stride"], x["min_iteration_ns"],
                                    x["distance_iterations"])
                         for x in hints) or "no hint (no constant stride found)"
        same = text_of(plain) == text_of(exe)
        print("  %-12s plain %8.1fms  feedback %8.1fms  speedup %.2fx "
              "(target >= %.2fx: %s; medians %.1fms / %.1fms = %.2fx)  output "
              "identical; code %s; hints: %s" % (
                  w, mp / 1e6, mf / 1e6, mp / mf, target,
                  "met" if mp / mf >= target else "NOT met", dp / 1e6,
                  df / 1e6, dp / df,
                  "identical to plain" if same else "differs from plain", desc))


if __name__ == "__main__":
    main()
