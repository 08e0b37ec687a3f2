#!/usr/bin/env python3
#===- bench/tracemode/run.py - mode=trace against profile mode and truth ---===#
#
# Part of ActiveTime. How much mode=trace perturbs a program, judged against
# an uninstrumented build. Every program is built twice (clang-19 -O2 -g,
# and bin/activetime-clang -O2 -g) and run in rounds, the order of the
# variants rotated per round:
#   plain    the uninstrumented build: the truth (the program prints its
#            parent function's thread CPU time; demo: perf's task-clock)
#   profile  ACTIVETIME_OPTIONS=mode=profile (the default)
#   trace    ACTIVETIME_OPTIONS=mode=trace
# and with --decompose two more, which tell the trace's causes apart:
#   nobuf    mode=trace:trace_buffer_events=0 (the trace-mode probes, every
#            event dropped: no event buffer is written or faulted in)
#   timed    mode=profile:timing_ratio=0:code_samples=0 (profile mode
#            timing every call, as mode=trace does)
# and with --before BUILD one more: mode=trace with another build's
# activetime-clang (its runtime) and activetime (its reader), e.g. one of the
# commit before a change, side by side with this one:
#   before   mode=trace, BUILD's runtime and tool
# each under `perf stat -e task-clock,page-faults` when perf is there. Per
# program, medians over the rounds:
#   V/truth                   the parent's active time in variant V
#                             (`activetime report --json`; demo: the total
#                             self-active time) over the truth
#   offline                   the same from `activetime active-time --json`
#                             over the trace (outermost invocations, all
#                             threads; "-" where an exit was dropped)
#   CPU x prof, CPU x trace   task-clock over plain's (short programs: the
#                             runtime's start-up calibration and the
#                             profile's writing dominate)
#   faults plain/prof/trace   page faults of the whole process (the trace's
#                             include writing it at exit)
#   buffers                   what the trace report says its buffers cost
#                             inside the run (report --json,
#                             processes[].trace.buffer_ns; "-" for a build
#                             before raw format 8), and over the trace
#                             run's task-clock
#   dropped                   trace events dropped (buffer full)
# With --decompose or --before, the trace's active time over each of those
# variants' in the same round, median and range over the rounds: pairs
# share the machine's state.
# Programs: bench/truth/tiny.c (a ~1 ns callee, flat and 4 deep; sized so
# the trace fits its buffer), bench/accuracy/accuracy.c (overhead: 5 M calls
# of a short child, the buffer fills; deep: an 8-deep path; blocking and
# preempt: long functions), examples/demo/demo.c (3 threads, mixed).
#
# usage: run.py --build-dir BUILD [--rounds N] [--keep DIR] [--json FILE]
#               [--programs a,b] [--options EXTRA] [--decompose]
#               [--before BUILD]
#
#===----------------------------------------------------------------------===#

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SOURCES = {
    "tiny": os.path.join(ROOT, "bench", "truth", "tiny.c"),
    "accuracy": os.path.join(ROOT, "bench", "accuracy", "accuracy.c"),
    "demo": os.path.join(ROOT, "examples", "demo", "demo.c"),
}
# name: (source, arguments, function whose truth the program prints; None:
# the whole program against task-clock)
PROGRAMS = [
    ("tiny-flat", "tiny", ["flat", "400000"], "flat_parent"),
    ("tiny-deep4", "tiny", ["deep4", "100000"], "deep4_parent"),
    ("acc-overhead", "accuracy", ["overhead"], "flat_parent"),
    ("acc-deep", "accuracy", ["deep"], "deep_parent"),
    ("acc-blocking", "accuracy", ["blocking"], "half_asleep"),
    ("acc-preempt", "accuracy", ["preempt"], "busy"),
    ("demo", "demo", [], None),
]


def sh(cmd, cwd=None, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, check=True,
                          capture_output=True, text=True)


def truth_ns(out, fn):
    """Sum of the program's "truth <scenario> <tid> <fn> <ns> ..." lines."""
    total, seen = 0, False
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 5 and p[0] == "truth" and p[3] == fn:
            total += int(p[4])
            seen = True
    return total if seen else None


def perf_stat(perf, cmd, cwd, env):
    """(stdout, task-clock ms, page faults) of one run."""
    if not perf:
        return sh(cmd, cwd, env).stdout, None, None
    stat = os.path.join(cwd, "perf-stat.txt")
    r = sh([perf, "stat", "-x,", "-o", stat, "-e", "task-clock,page-faults"] + cmd,
           cwd, env)
    clock = faults = None
    with open(stat) as f:
        for line in f:
            p = line.strip().split(",")
            if len(p) > 2 and p[2] == "task-clock":
                clock = float(p[0])
            elif len(p) > 2 and p[2] == "page-faults":
                faults = int(p[0])
    return r.stdout, clock, faults


VARIANTS = {
    "plain": None,
    "profile": "mode=profile",
    "trace": "mode=trace",
    "nobuf": "mode=trace:trace_buffer_events=0",
    "timed": "mode=profile:timing_ratio=0:code_samples=0",
    "before": "mode=trace",
}


def run_variant(args, build, exe, prog, mode, work):
    name, _, argv, fn = prog
    raw = os.path.join(work, "%s-%s.raw" % (name, mode))
    if os.path.exists(raw):
        os.unlink(raw)
    env = dict(os.environ)
    if mode != "plain":
        opts = "%s:output=%s" % (VARIANTS[mode], raw)
        if args.options:
            opts += ":" + args.options
        env["ACTIVETIME_OPTIONS"] = opts
    out, clock, faults = perf_stat(args.perf, [exe] + argv, work, env)
    res = {"clock_ms": clock, "faults": faults, "truth": truth_ns(out, fn) if fn else None}
    if mode == "plain":
        return res
    at = os.path.join(build, "bin", "activetime")
    rep = json.loads(sh([at, "report", "--json", "--top", "0", raw]).stdout)
    if fn:
        f = [x for x in rep["functions"] if x["name"] == fn]
        res["active"] = f[0]["active_ns"] if f else None
    else:
        res["active"] = rep["total_self_active_ns"]
    tr = rep["processes"][0].get("trace")
    if mode in ("trace", "nobuf", "before") and tr:
        res["buffer_ns"] = tr.get("buffer_ns")
        res["dropped"] = tr.get("dropped_events")
    if mode == "trace" and fn:
        off = json.loads(sh([at, "active-time", "--json", "--portion", fn, raw]).stdout)
        rs = off["results"]
        if rs and not any(r["unmatched_enters"] for r in rs):
            res["offline"] = sum(r["active_ns"] for r in rs)
    return res


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, f="%.2f"):
    return f % x if x is not None else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--keep", help="keep binaries and profiles here")
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--programs", help="comma-separated subset")
    ap.add_argument("--options", help="more ACTIVETIME_OPTIONS for every variant")
    ap.add_argument("--decompose", action="store_true",
                    help="also run the nobuf and timed variants")
    ap.add_argument("--before", help="also run mode=trace with this build's runtime and tool")
    args = ap.parse_args()
    args.perf = shutil.which("perf")
    if args.perf and subprocess.run([args.perf, "stat", "-e", "task-clock", "true"],
                                    capture_output=True).returncode != 0:
        args.perf = None
    build = os.path.abspath(args.build_dir)
    work = os.path.abspath(args.keep or tempfile.mkdtemp(prefix="activetime-tracemode."))
    os.makedirs(work, exist_ok=True)
    progs = PROGRAMS
    if args.programs:
        want = set(args.programs.split(","))
        progs = [p for p in PROGRAMS if p[0] in want]
    before = os.path.abspath(args.before) if args.before else None
    exes = {}
    for src in sorted({p[1] for p in progs}):
        exes[src] = [os.path.join(work, src + s) for s in ("-plain", "-at", "-before")]
        sh(["clang-19", "-O2", "-g", SOURCES[src], "-o", exes[src][0], "-lpthread"])
        for b, exe in ((build, exes[src][1]), (before, exes[src][2])):
            if b:
                sh([os.path.join(b, "bin", "activetime-clang"), "-O2", "-g", SOURCES[src],
                    "-o", exe, "-lpthread"])
    modes = ["plain", "profile", "trace"] + (["nobuf", "timed"] if args.decompose else []) + (
        ["before"] if before else [])
    results = {p[0]: {m: [] for m in modes} for p in progs}
    for rnd in range(args.rounds):
        k = rnd % len(modes)
        order = modes[k:] + modes[:k]
        for prog in progs:
            plain, at, old = exes[prog[1]]
            for m in order:
                exe = plain if m == "plain" else old if m == "before" else at
                results[prog[0]][m].append(
                    run_variant(args, before if m == "before" else build, exe, prog, m, work))
    load = os.getloadavg()
    print("mode=trace against profile mode and the uninstrumented build "
          "(medians of %d rounds%s)" % (args.rounds, "" if args.perf else "; no perf: CPU columns empty"))
    others = [m for m in modes if m != "plain"]
    cols = ["program", "truth ms"] + ["%s/truth" % m for m in others] + [
        "offline", "CPU x prof", "CPU x trace",
        "faults plain/prof/trace" + ("/before" if before else ""),
        "buffers ms (% CPU)", "dropped"]
    widths = [13, 9] + [len(m) + 7 for m in others] + [8, 10, 11, 30 if before else 23, 18, 9]
    line = lambda vals: " ".join(("%-*s" if i == 0 else "%*s") % (w, v)
                                 for i, (w, v) in enumerate(zip(widths, vals)))
    print(line(cols))
    for prog in progs:
        r = results[prog[0]]
        plain = r["plain"]
        if prog[3]:
            truth = med(x["truth"] for x in plain)
        else:
            truth = med(x["clock_ms"] * 1e6 if x["clock_ms"] else None for x in plain)

        def ratio(mode, key):
            return med(x.get(key) / truth if x.get(key) is not None and truth else None
                       for x in r[mode])

        def cpu(mode):
            return med(a["clock_ms"] / b["clock_ms"] if a["clock_ms"] and b["clock_ms"] else None
                       for a, b in zip(r[mode], plain))
        faults = "/".join(fmt(med(x["faults"] for x in r[m]), "%d")
                          for m in ("plain", "profile", "trace") + (("before",) if before else ()))
        buf = med(x.get("buffer_ns") for x in r["trace"])
        share = med(x["buffer_ns"] / (x["clock_ms"] * 1e6)
                    if x.get("buffer_ns") is not None and x["clock_ms"] else None
                    for x in r["trace"])
        bufs = "-" if buf is None else "%.2f (%s%%)" % (buf / 1e6, fmt(share and share * 100, "%.1f"))
        print(line([prog[0], fmt(truth and truth / 1e6)] +
                   [fmt(ratio(m, "active")) for m in others] +
                   [fmt(ratio("trace", "offline")), fmt(cpu("profile")), fmt(cpu("trace")),
                    faults, bufs, fmt(med(x.get("dropped") for x in r["trace"]), "%d")]))
    paired = [m for m in ("before", "nobuf", "timed") if m in modes]
    if paired:
        # Same round, same machine state: the runs' ratio, median and range
        # over the rounds (the calibration differs per run; the load too).
        print("paired per round, trace's active time over: " + ", ".join(paired))
        for prog in progs:
            r = results[prog[0]]
            cells = []
            for m in paired:
                xs = [a["active"] / b["active"] for a, b in zip(r["trace"], r[m])
                      if a.get("active") and b.get("active")]
                cells.append("%s %s (%s-%s)" % (m, fmt(med(xs), "%.3f"),
                                                fmt(min(xs) if xs else None),
                                                fmt(max(xs) if xs else None)))
            print("  %-13s %s" % (prog[0], "   ".join(cells)))
    print("load average %.2f %.2f %.2f (end)" % load)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
