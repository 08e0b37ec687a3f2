#!/usr/bin/env python3
#===- bench/scale/run.py - the tool on deep and broad profiles ------------===#
#
# Part of ActiveTime. Builds bench/scale/deep.c with the profiler, makes its
# profiles and runs every view of `activetime report` but --html, every
# export format, `active-time`, `merge` and `diff` on them under
# /usr/bin/time, printing seconds, peak RSS and output size per command.
# Exits non-zero when a command takes longer than --max-seconds, more than
# --max-rss-mib, or fails other than by refusing in one line
# ("activetime: error: ...", which is the allowed way out of an input too
# big for a view).
#
# Profiles (ACTIVETIME_OPTIONS=timing_ratio=0, so every call stays a node):
#   chain-D          deep chain D: D nested calls of one function, each a new
#                    call path (--depths, default 10000,50000,200000),
#                    spinning so that the run lasts ~2 s and sample=1 finds
#                    deep stacks; profile mode
#   chain-D-trace    the same, mode=trace
#   broad            deep broad 4 10: 1,398,100 nodes; profile mode
#   broad-trace      the same, mode=trace (a buffer big enough for 2.8 M
#                    events)
# each with sample=1.
#
# usage: run.py --build-dir BUILD [--depths 10000,50000,200000] [--no-broad]
#               [--keep DIR] [--max-seconds 60] [--max-rss-mib 2048]
#               [--only REGEX]
#
#===----------------------------------------------------------------------===#

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "deep.c")

# The views of `activetime report` (report --help), but --html, which
# another file owns, and the export formats (export --help), each with the
# options that make it do the most work.
REPORTS = [
    ["report"],
    ["report", "--header"],
    ["report", "--top", "0"],
    ["report", "--tree"],
    ["report", "--tree", "--max-depth=0"],
    ["report", "--tree", "--max-depth=0", "--json"],
    ["report", "--json"],
    ["report", "--json", "--callers", "--call-sites", "--bottom-up",
     "--threads"],
    ["report", "--sort=name", "--top", "0", "--full-names"],
    ["report", "--callers"],
    ["report", "--call-sites"],
    ["report", "--bottom-up"],
    ["report", "--bottom-up", "--max-depth=0"],
    ["report", "--threads"],
    ["report", "--latency"],
    ["report", "--samples"],
    ["report", "--samples", "--top", "0"],
    ["report", "--strides"],
    ["report", "--strides", "--json"],
    ["report", "--parallel"],
    ["report", "--parallel", "--json"],
]
EXPORTS = [
    ["export", "--format=json"],
    ["export", "--format=folded"],
    ["export", "--format=folded", "--max-stack=0"],
    ["export", "--format=speedscope", "--source=tree"],
    ["export", "--format=speedscope", "--source=samples"],
    ["export", "--format=pprof"],
    ["export", "--format=pprof", "--max-stack=0"],
    ["export", "--format=symbol-order"],
    ["export", "--format=pgo"],
    ["export", "--format=sample-profile", "--allow-call-counts"],
    ["export", "--format=prefetch"],
]
TRACE_ONLY = [
    ["export", "--format=chrome"],
    ["export", "--format=speedscope", "--source=trace"],
    ["active-time"],
    ["active-time", "--json"],
    ["active-time", "--intervals"],
]


def build(build_dir, work):
    exe = os.path.join(work, "deep")
    cc = os.path.join(build_dir, "bin", "activetime-clang")
    subprocess.run([cc, "-O2", "-g", SRC, "-o", exe, "-lpthread"], check=True)
    return exe


def make_profile(exe, work, name, argv, options):
    raw = os.path.join(work, name + ".raw")
    if os.path.exists(raw):
        return raw
    env = dict(os.environ, ACTIVETIME_OPTIONS="output=%s:timing_ratio=0:"
               "sample=1:%s" % (raw, options))
    print("# making %s: %s %s" % (name, " ".join(argv), env["ACTIVETIME_OPTIONS"]),
          flush=True)
    subprocess.run([exe] + argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return raw


def limit_address_space(mib):
    # A runaway command dies instead of taking the (shared) machine's memory.
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (mib << 20, mib << 20))
    return set_limit


def measure(tool, args, raw, work, limits):
    """(status, seconds, peak RSS MiB, output bytes, first stderr line)."""
    out = os.path.join(work, "out")
    timing = os.path.join(work, "time.txt")
    cmd = [tool] + args + [raw]
    if args[0] in ("export", "merge"):
        cmd[-1:-1] = ["-o", out]
    elif args[0] == "diff":
        cmd.append(raw)
    writes_file = args[0] in ("export", "merge")
    stdout = open(os.devnull if writes_file else out, "w")
    try:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", timing] + cmd,
                           stdout=stdout, stderr=subprocess.PIPE, text=True,
                           timeout=limits.max_seconds * 3,
                           preexec_fn=limit_address_space(limits.max_rss_mib * 4))
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    finally:
        stdout.close()
    secs, rss = None, None
    try:
        with open(timing) as f:
            for line in f:
                m = re.match(r"^([0-9.]+) ([0-9]+)$", line.strip())
                if m:
                    secs, rss = float(m.group(1)), int(m.group(2)) / 1024.0
    except OSError:
        pass
    size = os.path.getsize(out) if os.path.exists(out) else 0
    if os.path.exists(out):
        os.unlink(out)
    errors = [l for l in err.splitlines() if l.strip()]
    if rc == 0:
        status = "ok"
    elif (rc == 1 and len(errors) == 1 and
          errors[0].startswith("activetime: error:")):
        status = "refused"
    else:
        status = "FAILED(%s)" % rc
    return status, secs, rss, size, errors[0] if errors else ""


def human(n):
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if n < 1024 or unit == "GiB":
            return "%.0f %s" % (n, unit) if unit == "B" else "%.1f %s" % (n, unit)
        n /= 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--depths", default="10000,50000,200000")
    ap.add_argument("--no-broad", action="store_true")
    ap.add_argument("--keep", help="keep the profiles in this directory")
    ap.add_argument("--max-seconds", type=float, default=60)
    ap.add_argument("--max-rss-mib", type=float, default=2048)
    ap.add_argument("--only", help="only commands matching this regex")
    args = ap.parse_args()
    tool = os.path.join(args.build_dir, "bin", "activetime")
    work = args.keep or tempfile.mkdtemp(prefix="at-scale-")
    os.makedirs(work, exist_ok=True)
    exe = build(args.build_dir, work)

    profiles = []
    for d in [int(x) for x in args.depths.split(",") if x]:
        # ~2 s of spinning in all: samples every 10 ms find deep stacks.
        spin = str(max(1, 2000000 // d))
        argv = ["chain", str(d), spin]
        profiles.append(("chain-%d" % d,
                         make_profile(exe, work, "chain-%d" % d, argv, ""), False))
        profiles.append(("chain-%d-trace" % d,
                         make_profile(exe, work, "chain-%d-trace" % d, argv,
                                      "mode=trace"), True))
    if not args.no_broad:
        argv = ["broad", "4", "10"]
        profiles.append(("broad", make_profile(exe, work, "broad", argv, ""), False))
        profiles.append(("broad-trace",
                         make_profile(exe, work, "broad-trace", argv,
                                      "mode=trace:trace_buffer_events=4194304"),
                         True))

    bad = 0
    print("%-18s %-58s %8s %9s %10s  %s" % ("profile", "command", "seconds",
                                           "RSS MiB", "output", "status"))
    for name, raw, traced in profiles:
        print("%-18s %-58s %8s %9s %10s" % (name, "(raw profile)", "", "",
                                            human(os.path.getsize(raw))))
        commands = REPORTS + EXPORTS + (TRACE_ONLY if traced else [])
        commands = commands + [["merge"], ["diff"]]
        for c in commands:
            label = " ".join(c)
            if args.only and not re.search(args.only, label):
                continue
            status, secs, rss, size, first = measure(tool, c, raw, work, args)
            over = []
            if secs is None or secs > args.max_seconds:
                over.append("time")
            if rss is None or rss > args.max_rss_mib:
                over.append("memory")
            if over or not status in ("ok", "refused"):
                bad += 1
                status += " OVER " + ",".join(over) if over else ""
            note = ": " + first[:110] if status.startswith("refused") or \
                "FAILED" in status else ""
            print("%-18s %-58s %8s %9s %10s  %s%s" % (
                name, label, "%.2f" % secs if secs is not None else "-",
                "%.0f" % rss if rss is not None else "-", human(size), status,
                note), flush=True)
    if not args.keep:
        shutil.rmtree(work)
    print("%d command(s) over the limits or failed" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
