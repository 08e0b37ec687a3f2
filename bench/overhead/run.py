#!/usr/bin/env python3
#===- bench/overhead/run.py - whole-program slowdown against the peers ----===#
#
# Part of ActiveTime. Builds two call-heavy real programs (lua5.4 running
# calls.lua; tinyxml2 under xmlbench.cpp), everything instrumented, in these
# variants, and runs them interleaved, repeated, printing min and median wall
# time and the ratio to the uninstrumented build:
#   plain        clang-19 -O2 -g
#   activetime   bin/activetime-clang(++) -O2 -g, default options (profile
#                mode, switch source auto, calibrated overhead); the profile
#                is written (its cost is in the time)
#   activetime-bi the same with -mllvm -activetime-before-inlining (function
#                probes before inlining: inlined calls keep theirs)
#   cyg-empty    clang -finstrument-functions, empty hooks in another object
#   cyg-empty-ai the same with -finstrument-functions-after-inlining (probes
#                on the functions left after inlining, as ours and XRay's)
#   xray-basic   -fxray-instrument -fxray-instruction-threshold=1,
#                XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic"
#   xray-prof    the same binary, xray_mode=xray-profiling
#   uftrace      `uftrace record --no-libcall` of the -pg build
# Sources come from the Debian 12 source packages (test/integration/projects.py).
#
#===----------------------------------------------------------------------===#

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "integration"))
import projects as P  # noqa: E402


def variants(build_dir, hooks_obj, xray_init_obj):
    # Clang links only the basic and FDR modes by default; profiling is opt-in.
    xray = ["-fxray-instrument", "-fxray-instruction-threshold=1",
            "-fxray-modes=xray-basic,xray-profiling"]
    V = P.Variant
    return {
        "plain": P.plain_variant(),
        "activetime": P.activetime_variant(build_dir),
        "activetime-bi": P.activetime_variant(
            build_dir, ["-mllvm", "-activetime-before-inlining"]),
        "cyg-empty": V("cyg-empty", [P.CLANG], [P.CLANGXX],
                       ["-O2", "-g", "-finstrument-functions"], link_extra=[hooks_obj]),
        "cyg-empty-ai": V("cyg-empty-ai", [P.CLANG], [P.CLANGXX],
                          ["-O2", "-g", "-finstrument-functions-after-inlining"],
                          link_extra=[hooks_obj]),
        "xray": V("xray", [P.CLANG], [P.CLANGXX], ["-O2", "-g"] + xray,
                  ldflags=["-Wl,--wrap=main"], link_extra=[xray_init_obj]),
        "pg": V("pg", [P.CLANG], [P.CLANGXX], ["-O2", "-g", "-pg"]),
    }


# (label, build variant, how to run it)
RUNS = [
    ("plain", "plain", ""),
    ("activetime", "activetime", "activetime"),
    ("activetime-bi", "activetime-bi", "activetime"),
    ("cyg-empty", "cyg-empty", ""),
    ("cyg-empty-ai", "cyg-empty-ai", ""),
    ("xray-basic", "xray", "xray-basic"),
    ("xray-prof", "xray", "xray-profiling"),
    ("uftrace", "pg", "uftrace"),
]


def run_once(cmd, how, scratch, keep=None):
    env = dict(os.environ)
    for k in ("ACTIVETIME_OPTIONS", "XRAY_OPTIONS"):
        env.pop(k, None)
    out = tempfile.mkdtemp(dir=scratch)
    if how.startswith("activetime"):  # "activetime" or "activetime:<options>"
        env["ACTIVETIME_OPTIONS"] = ":".join(["output=%s/" % out] + how.split(":")[1:])
    elif how.startswith("xray"):
        env["XRAY_OPTIONS"] = ("patch_premain=true xray_mode=%s verbosity=0 "
                               "xray_logfile_base=%s/xray-log." % (how, out))
    elif how == "uftrace":
        cmd = ["uftrace", "record", "--no-libcall", "-d", os.path.join(out, "uftrace.data")] + cmd
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs]
    written = sum(os.path.getsize(f) for f in files)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                  r.stderr.decode(errors="replace")[-500:]))
    if how == "activetime" and keep is not None:
        for f in files:
            shutil.copy(f, keep)
    shutil.rmtree(out)
    return t, r.stdout, written


def correction_summary(build_dir, raw):
    """What the activetime run corrected with: overhead table and switch data."""
    r = subprocess.run([os.path.join(build_dir, "bin", "activetime"), "report", "--json", raw],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return "profile not readable: " + r.stderr.strip()
    doc = json.loads(r.stdout)
    o = doc["processes"][0]["overhead"]
    calls = sum(f["calls"] for f in doc["functions"])
    away = doc.get("inlined_away", {})
    return ("%d calls profiled, %d functions with figures, %d of %d inlined away; "
            "overhead table %s (enter %.1f, exit %.1f ticks); "
            "threads without switch data: %d" % (calls, len(doc["functions"]),
                                                away.get("functions", 0),
                                                away.get("program_functions", 0),
                                                o["source"], o["enter_ticks"],
                                                o["exit_ticks"],
                                                doc["threads_without_switch_data"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work", help="build cache (default <build>/bench-overhead)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--lua-scale", type=int, default=3)
    ap.add_argument("--xml", default="20000,8", help="records,rounds for xmlbench")
    ap.add_argument("--only", help="comma-separated labels to run besides plain")
    ap.add_argument("--also", action="append", default=[], metavar="LABEL=BUILD_DIR",
                    help="an extra activetime variant from another build of ActiveTime "
                         "(e.g. one configured with -DACTIVETIME_PROBE_FAST_PATH=OFF)")
    ap.add_argument("--options", action="append", default=[], metavar="LABEL=OPTIONS",
                    help="an extra run of the activetime binaries with these "
                         "ACTIVETIME_OPTIONS (e.g. fenced=probe_fence=1)")
    args = ap.parse_args()
    build_dir = os.path.abspath(args.build_dir)
    work = os.path.abspath(args.work or os.path.join(build_dir, "bench-overhead"))
    os.makedirs(work, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="scratch-", dir=work)

    hooks_obj = os.path.join(work, "hooks.o")
    P.run([P.CLANG, "-O2", "-c", os.path.join(HERE, "hooks.c"), "-o", hooks_obj])
    xray_init_obj = os.path.join(work, "xray_profiling_init.o")
    P.run([P.CLANG, "-O2", "-c", os.path.join(HERE, "xray_profiling_init.c"), "-o", xray_init_obj])
    vs = variants(build_dir, hooks_obj, xray_init_obj)
    runs = [r for r in RUNS if r[0] == "plain" or not args.only or r[0] in args.only.split(",")]
    for a in args.also:
        label, other = a.split("=", 1)
        vs[label] = P.activetime_variant(os.path.abspath(other))
        vs[label].name = label
        runs.append((label, label, "activetime"))
    for a in args.options:
        label, opts = a.split("=", 1)
        runs.append((label, "activetime", "activetime:" + opts))
    needed = sorted({r[1] for r in runs})
    records, rounds = args.xml.split(",")
    workloads = []
    lua = {v: P.build("lua", vs[v], build_dir, work, args.jobs)[1]["lua"] for v in needed}
    workloads.append(("lua calls.lua %d" % args.lua_scale,
                      {v: [lua[v], os.path.join(HERE, "calls.lua"), str(args.lua_scale)]
                       for v in needed}))
    xml = {v: P.build("tinyxml2", vs[v], build_dir, work, args.jobs,
                      extra_main=os.path.join(HERE, "xmlbench.cpp"))[1]["xmlbench"]
           for v in needed}
    workloads.append(("tinyxml2 xmlbench %s %s" % (records, rounds),
                      {v: [xml[v], records, rounds] for v in needed}))

    load = os.getloadavg()
    print("bench/overhead: %d repetitions, variants interleaved; load average %.2f %.2f %.2f"
          % (args.repeat, *load))
    for name, cmds in workloads:
        times = {r[0]: [] for r in runs}
        written = {r[0]: 0 for r in runs}
        ref = None
        keep = {}  # variant -> directory of its warm-up run's profile
        for label, v, how in runs:  # warm-up, and outputs checked once
            _, out, _ = run_once(cmds[v], how, scratch,
                                 keep.setdefault(v, tempfile.mkdtemp(dir=scratch))
                                 if v.startswith("activetime") else None)
            if ref is None:
                ref = out
            elif out != ref:
                raise RuntimeError("%s: %s prints something else than plain" % (name, label))
        for rep in range(args.repeat):
            order = runs[rep % len(runs):] + runs[:rep % len(runs)]
            for label, v, how in order:
                t, _, w = run_once(cmds[v], how, scratch)
                times[label].append(t)
                written[label] = w
        pmin = min(times["plain"])
        pmed = statistics.median(times["plain"])
        print("\n%s  (output identical in every variant: %s)" % (name, ref.decode().strip()[:60]))
        print("%-14s %9s %9s %9s %9s %12s" % ("variant", "min s", "median s", "min x",
                                              "median x", "data written"))
        for label, _, _ in runs:
            t = times[label]
            print("%-14s %9.3f %9.3f %9.2f %9.2f %12s" % (
                label, min(t), statistics.median(t), min(t) / pmin,
                statistics.median(t) / pmed, "%.1f kB" % (written[label] / 1e3)))
        for v, d in sorted(keep.items()):
            raws = glob.glob(os.path.join(d, "*.raw"))
            if raws:
                print("%s (warm-up run): %s" % (v, correction_summary(build_dir, raws[0])))
    shutil.rmtree(scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
