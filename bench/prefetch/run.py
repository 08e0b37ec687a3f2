#!/usr/bin/env python3
#===- bench/prefetch/run.py - prefetch feedback on programs not written for it =#
#
# Part of ActiveTime. Prefetch feedback (stride profiling, `export
# --format=prefetch`, the feedback build) on programs that were not written
# for it, in two sets:
#
# memory  memory-bound reimplementations of published kernels (this
#         folder): NAS IS (is.c, NPB's bucketed sort, and built with
#         -DIS_NO_BUCKETS NPB's plain counting sort), NAS CG (cg.c), the
#         no-partitioning hash join of Balkesen et al. as Ainsworth & Jones
#         benchmark it (hashjoin.c, 2 and 8 tuples per bucket). Each is
#         built
#           plain     clang-19 -O2 -g
#           profiled  activetime-clang -O2 -g -mllvm -activetime-strides
#           feedback  clang-19 -O2 -g with the plugin and
#                     -mllvm -activetime-prefetch-use=HINTS
#                     -mllvm -activetime-print-decisions
#         where HINTS is `activetime export --format=prefetch` of the
#         profiled build's run on the *train* input. Then N rounds on the
#         *ref* input, the three builds in alternating order (plain,
#         feedback, profiled; then the reverse). Per program: median wall
#         and kernel time (the program times its kernel itself), speed-up
#         plain / feedback of the kernel medians (and of the wall medians)
#         with the range of the per-round ratios, the prefetches inserted;
#         the geomean speed-up (target >= 1.2x); the profiling overhead
#         profiled / plain (ACTIVETIME_OPTIONS=write_profile=0), median
#         (target <= 1.5x).
# noregress  the truth harness's five programs (lua, zlib, tinyxml2,
#         sqlite3, yaml-cpp from the Debian sources, their workloads from
#         bench/truth/run.py), built plain, profiled and feedback the same
#         way through test/integration/projects.py (profiled and feedback
#         with -fdebug-prefix-map of their build trees to one name, so that
#         the hints' source locations are the same in both), profiled on
#         their usual workload; N rounds of the three and the plain build
#         once more (an identical binary: what this machine's noise makes
#         of a ratio), alternating; the process CPU time (os.wait4) and
#         wall time: plain / feedback (target: none below 0.99x), beside
#         plain / plain again, and profiled / plain (target <= 1.5x).
#
# Every feedback (and profiled) run's stdout must equal plain's (the
# programs' `*_ns` timing lines left out); a difference or a failed step
# exits non-zero. The timing targets are printed as meets / misses, never
# judged. The export chooses the memory latency itself (--latency-ns passes
# one instead).
#
# Also printed per memory-bound program: the hints (location, class, stride,
# distance), the hot loads of the profile (`report --strides`, dynamic loads
# with >= 1% of the most executed one's executions) and whether they got a
# hint, and the feedback build's -activetime-print-decisions lines; all of
# it is kept in the work directory (--keep).
#
# usage: run.py --build-dir BUILD [--rounds N] [--keep DIR]
#               [--only memory|noregress] [--latency-ns L]
#
#===----------------------------------------------------------------------===#

import argparse
import collections
import importlib.util
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
CLANG = os.environ.get("ACTIVETIME_CLANG", "clang-19")

# name: (source, extra compile flags)
MEMORY = collections.OrderedDict([
    ("is", ("is.c", [])),
    ("is-nobuckets", ("is.c", ["-DIS_NO_BUCKETS"])),
    ("cg", ("cg.c", [])),
    ("hj2", ("hashjoin.c", ["-DBUCKET_SIZE=2"])),
    ("hj8", ("hashjoin.c", ["-DBUCKET_SIZE=8"])),
])
NOREGRESS = ("lua", "zlib", "tinyxml2", "sqlite3", "yaml-cpp")
SPEEDUP_TARGET = 1.2
OVERHEAD_TARGET = 1.5
NOREGRESS_TARGET = 0.99
# -activetime-print-decisions: a prefetch inserted (constant stride or
# indirect), or an indirect hint the pass refused, with why.
INSERTED = ("activetime: prefetch in ", "activetime: indirect prefetch in ")
REFUSED = "activetime: no indirect prefetch in "
TIMING_LINE = re.compile(rb"^[A-Za-z0-9_]+_ns -?[0-9]+$")


def log(msg):
    print("[prefetch] " + msg, file=sys.stderr, flush=True)


class StepError(Exception):
    pass


def sh(cmd, env=None, cwd=None):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise StepError("%s exited %d: %s" % (" ".join(cmd), r.returncode,
                                             r.stderr.strip()[-2000:]))
    return r


def clean_env(options=None):
    env = dict(os.environ)
    env.pop("ACTIVETIME_OPTIONS", None)
    if options:
        env["ACTIVETIME_OPTIONS"] = options
    return env


def timed_run(cmd, env, stdin=None, cwd=None):
    """(stdout bytes, wall s, CPU s of the process) of one run; stdout goes
    through a file so that the process never waits for us."""
    with tempfile.TemporaryFile() as out, open(stdin or os.devnull, "rb") as fin, \
            tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, stdin=fin, stdout=out, stderr=err, cwd=cwd)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        data = out.read()
        if p.returncode != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines() or [""]
            raise StepError("%s exited %d: %s" % (" ".join(cmd), p.returncode, tail[-1][:300]))
    return data, wall, ru.ru_utime + ru.ru_stime


def comparable(out):
    """stdout without the programs' timing lines."""
    return b"\n".join(l for l in out.splitlines() if not TIMING_LINE.match(l))


def kernel_ns(out):
    for l in out.splitlines():
        if l.startswith(b"kernel_ns "):
            return int(l.split()[1])
    raise StepError("no kernel_ns line in the output")


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def verdict(ok):
    return "meets" if ok else "misses"


def text_of(exe):
    """The bytes of the executable's .text section."""
    objcopy = os.environ.get("LLVM_OBJCOPY", "llvm-objcopy-19")
    out = exe + ".text"
    sh([objcopy, "-O", "binary", "--only-section=.text", exe, out])
    with open(out, "rb") as f:
        return f.read()


def decisions(stderr_text):
    """The prefetch lines of -activetime-print-decisions (inserted or
    refused); its function-selection lines are left out."""
    return [l for l in stderr_text.splitlines() if l.startswith(INSERTED + (REFUSED,))]


def inserted(lines):
    return [l for l in lines if l.startswith(INSERTED)]


def source_line(file, line, cache={}):
    """The source text at file:line, shortened (for the listings)."""
    if file not in cache:
        try:
            with open(file, errors="replace") as f:
                cache[file] = f.read().splitlines()
        except (OSError, TypeError):
            cache[file] = []
    lines = cache[file]
    try:
        text = lines[int(line) - 1].strip() if 0 < int(line) <= len(lines) else ""
    except (TypeError, ValueError):
        text = ""
    return text if len(text) <= 60 else text[:57] + "..."


def grouped(lines):
    """Identical lines once, with how many times (unrolled copies)."""
    return [(l, n) for l, n in collections.Counter(lines).items()]


def order(rnd, kinds):
    """ABC, then CBA: a drift of the machine favours no build."""
    return list(kinds) if rnd % 2 == 0 else list(reversed(kinds))


# --- the toolchain -------------------------------------------------------------

class Tools:
    def __init__(self, build):
        self.build = build
        self.plugin = os.path.join(build, "lib", "ActiveTime.so")
        self.clang_plugin = os.path.join(build, "lib", "ActiveTimeClang.so")
        self.wrapper = os.path.join(build, "bin", "activetime-clang")
        self.wrapperxx = os.path.join(build, "bin", "activetime-clang++")
        self.tool = os.path.join(build, "bin", "activetime")
        for f in (self.plugin, self.clang_plugin, self.wrapper, self.tool):
            if not os.path.exists(f):
                raise StepError("%s is missing: build ActiveTime first" % f)

    def feedback_flags(self, hints):
        # -fplugin=ActiveTime.so: clang parses -mllvm only after loading it;
        # ActiveTimeClang.so reads the source annotations as the profiled
        # build's wrapper does (README.md).
        return ["-fpass-plugin=" + self.plugin, "-fplugin=" + self.plugin,
                "-fplugin=" + self.clang_plugin,
                "-mllvm", "-activetime-prefetch-use=" + hints,
                "-mllvm", "-activetime-print-decisions"]

    def export(self, raws, hints, latency):
        cmd = [self.tool, "export", "--format=prefetch", "-o", hints]
        if latency:
            cmd.append("--latency-ns=%.1f" % latency)
        sh(cmd + raws)
        with open(hints) as f:
            return json.load(f)

    def stride_rows(self, raws):
        """report --strides --json's rows (per source access)."""
        r = sh([self.tool, "report", "--strides", "--json"] + raws)
        data = json.loads(r.stdout)
        rows = data.get("strides", data) if isinstance(data, dict) else data
        return rows

    def stride_report(self, raws):
        return sh([self.tool, "report", "--strides"] + raws).stdout


def profile_dir(work, name):
    d = os.path.join(work, "prof-" + name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def raws_in(d):
    raws = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".raw"))
    if not raws:
        raise StepError("the profiled run wrote no profile into %s" % d)
    return raws


# --- hints against the profile's hot loads ---------------------------------------

def loc_key(file, line, col):
    return (os.path.basename(file or ""), int(line or 0), int(col or 0))


def hint_rows(hints):
    return [{"function": h.get("function"),
             "where": "%s:%s:%s" % (os.path.basename(h.get("file", "")), h.get("line"),
                                    h.get("column")),
             "key": loc_key(h.get("file"), h.get("line"), h.get("column")),
             "text": source_line(h.get("file"), h.get("line")),
             "kind": h.get("kind", "stride"),
             "class": h.get("class"), "stride": h.get("stride"),
             "iterations": h.get("distance_iterations"),
             "bytes": h.get("distance_bytes"),
             "iteration_ns": h.get("min_iteration_ns")}
            for h in hints.get("hints", [])]


def hot_loads(rows, hinted, share=0.01):
    """Dynamic loads of the stride report with at least `share` of the most
    executed one's executions, most executed first, each marked hinted."""
    loads = []
    for r in rows:
        access = str(r.get("access", r.get("kind_access", "")))
        is_store = r.get("store", False) or access.startswith("store")
        if is_store or r.get("static") or r.get("kind") == "static":
            continue
        ex = r.get("executions") or 0
        if not ex:
            continue
        loads.append(r)
    if not loads:
        return []
    top = max(r["executions"] for r in loads)
    out, seen = [], set()
    for r in sorted(loads, key=lambda r: -r["executions"]):
        if r["executions"] < share * top:
            break
        key = loc_key(r.get("file"), r.get("line"), r.get("column"))
        if key in seen:  # another copy of the access (unrolled, vectorized)
            continue
        seen.add(key)
        out.append({"where": "%s:%s:%s" % key, "function": r.get("function"),
                    "text": source_line(r.get("file"), r.get("line")),
                    "class": r.get("class"), "stride": r.get("stride"),
                    "executions": r["executions"], "hinted": key in hinted,
                    "iteration_ns": r.get("iteration_ns")})
    return out


# --- the memory-bound set ------------------------------------------------------------

class MemProgram:
    def __init__(self, name, work):
        self.name = name
        src, self.defs = MEMORY[name]
        self.src = os.path.join(HERE, src)
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=True)
        self.exe = {}
        self.times = {k: {"wall": [], "kernel": []} for k in ("plain", "feedback", "profiled")}
        self.ref_out = None
        self.decisions = []
        self.warnings = []
        self.hints = []
        self.hot = []
        self.loads_without_hint = None
        self.latency = None
        self.same_text = None
        self.error = None

    def cmd(self, kind, size):
        return [self.exe[kind], size]

    def build(self, tools, latency, work):
        lm = ["-lm"]
        plain = os.path.join(self.dir, "plain")
        prof = os.path.join(self.dir, "profiled")
        sh([CLANG, "-O2", "-g"] + self.defs + [self.src, "-o", plain] + lm)
        sh([tools.wrapper, "-O2", "-g", "-mllvm", "-activetime-strides"] + self.defs +
           [self.src, "-o", prof] + lm)
        self.exe = {"plain": plain, "profiled": prof}
        # The profile: the train input.
        d = profile_dir(self.dir, "train")
        timed_run([prof, "train"], clean_env("output=%s/" % d), cwd=self.dir)
        raws = raws_in(d)
        hints_file = os.path.join(self.dir, "hints.json")
        hints = tools.export(raws, hints_file, latency)
        self.hints = hint_rows(hints)
        self.loads_without_hint = hints.get("loads_without_hint")
        self.latency = hints.get("latency_ns")
        with open(os.path.join(self.dir, "strides-report.txt"), "w") as f:
            f.write(tools.stride_report(raws))
        try:
            self.hot = hot_loads(tools.stride_rows(raws), {h["key"] for h in self.hints})
        except (StepError, ValueError, KeyError, TypeError) as e:
            self.hot = []
            log("%s: no hot-load list from report --strides --json: %s" % (self.name, e))
        fb = os.path.join(self.dir, "feedback")
        r = sh([CLANG, "-O2", "-g"] + tools.feedback_flags(hints_file) + self.defs +
               [self.src, "-o", fb] + lm)
        with open(os.path.join(self.dir, "feedback-compile.stderr"), "w") as f:
            f.write(r.stderr)
        self.decisions = decisions(r.stderr)
        self.warnings = [l for l in r.stderr.splitlines() if "warning: activetime" in l]
        self.exe["feedback"] = fb
        self.same_text = text_of(plain) == text_of(fb)

    def run_round(self, rnd):
        for kind in order(rnd, ("plain", "feedback", "profiled")):
            opts = "write_profile=0" if kind == "profiled" else None
            out, wall, _ = timed_run(self.cmd(kind, "ref"), clean_env(opts), cwd=self.dir)
            c = comparable(out)
            if self.ref_out is None:
                if kind != "plain":
                    # the first run of round 0 is plain by construction
                    raise StepError("internal: no plain output to compare with")
                self.ref_out = c
            elif c != self.ref_out:
                with open(os.path.join(self.dir, kind + ".differs.out"), "wb") as f:
                    f.write(out)
                raise StepError("%s: the %s build prints something else than plain "
                                "(kept in %s)" % (self.name, kind, self.dir))
            self.times[kind]["wall"].append(wall)
            self.times[kind]["kernel"].append(kernel_ns(out) / 1e9)

    def figures(self):
        t = self.times
        m = {k: {w: median(v[w]) for w in ("wall", "kernel")} for k, v in t.items()}
        per_round = [p / f for p, f in zip(t["plain"]["kernel"], t["feedback"]["kernel"])]
        over = [p / q for p, q in zip(t["profiled"]["kernel"], t["plain"]["kernel"])]
        return {
            "median": m,
            "speedup": m["plain"]["kernel"] / m["feedback"]["kernel"],
            "speedup_wall": m["plain"]["wall"] / m["feedback"]["wall"],
            "round_min": min(per_round), "round_max": max(per_round),
            "overhead": m["profiled"]["kernel"] / m["plain"]["kernel"],
            "overhead_wall": m["profiled"]["wall"] / m["plain"]["wall"],
            "overhead_rounds": (min(over), max(over)),
            "prefetches": len(inserted(self.decisions)),
        }


def run_memory(args, tools, latency, work):
    progs = [MemProgram(n, work) for n in MEMORY]
    failed = False
    for p in progs:
        log("%s: building plain / profiled, profiling on train, feedback build" % p.name)
        try:
            p.build(tools, latency, work)
        except StepError as e:
            p.error = "build/profile: %s" % e
            failed = True
            log("%s: %s" % (p.name, p.error))
    for rnd in range(args.rounds):
        for p in progs:
            if p.error:
                continue
            log("round %d/%d: %s" % (rnd + 1, args.rounds, p.name))
            try:
                p.run_round(rnd)
            except StepError as e:
                p.error = "round %d: %s" % (rnd + 1, e)
                failed = True
                log("%s: %s" % (p.name, p.error))
    print_memory(progs, args)
    return failed


def print_memory(progs, args):
    print()
    print("Memory-bound programs: ref input, %d interleaved rounds, medians; speed-up = "
          "plain / feedback (kernel time; wall in brackets), range = the per-round "
          "ratios of kernel time" % args.rounds)
    hdr = ("program", "plain wall", "fb wall", "plain kernel", "fb kernel", "speed-up",
           "range", "prefetches")
    print("  %-13s %10s %10s %12s %10s %16s %13s %10s" % hdr)
    speedups = []
    for p in progs:
        if p.error:
            print("  %-13s FAILED: %s" % (p.name, p.error))
            continue
        f = p.figures()
        m = f["median"]
        speedups.append(f["speedup"])
        print("  %-13s %9.3fs %9.3fs %11.3fs %9.3fs %7.2fx (%.2fx) %5.2f..%.2fx %10d" % (
            p.name, m["plain"]["wall"], m["feedback"]["wall"], m["plain"]["kernel"],
            m["feedback"]["kernel"], f["speedup"], f["speedup_wall"], f["round_min"],
            f["round_max"], f["prefetches"]))
    if speedups:
        g = geomean(speedups)
        print("  geomean speed-up over %d programs: %.3fx (target >= %.1fx: %s)" % (
            len(speedups), g, SPEEDUP_TARGET, verdict(g >= SPEEDUP_TARGET)))
    print()
    print("Profiling overhead: profiled (-activetime-strides, write_profile=0) / plain, "
          "ref input, medians (target <= %.1fx)" % OVERHEAD_TARGET)
    print("  %-13s %8s %8s %13s %8s" % ("program", "kernel", "wall", "range", "target"))
    for p in progs:
        if p.error:
            continue
        f = p.figures()
        lo, hi = f["overhead_rounds"]
        print("  %-13s %7.2fx %7.2fx %5.2f..%.2fx %8s" % (
            p.name, f["overhead"], f["overhead_wall"], lo, hi,
            verdict(f["overhead"] <= OVERHEAD_TARGET)))
    print()
    print("Hints and hot loads per program (profile of the train input):")
    for p in progs:
        if p.error and not p.hints and not p.hot:
            continue
        print("  %s: %d hint(s), %s dynamic load(s) without a hint, latency %s ns; "
              "feedback .text %s" % (
            p.name, len(p.hints),
            "?" if p.loads_without_hint is None else p.loads_without_hint, p.latency,
            "identical to plain" if p.same_text else "differs from plain"))
        rows = [("    hint  %-20s %-9s %-8s %-9s stride %6s  %s iterations, %s bytes ahead "
                 "(shortest iteration %s ns)  %s" % (
                     h["where"], h["function"], h["kind"], h["class"], h["stride"],
                     h["iterations"], h["bytes"], h["iteration_ns"], h["text"]))
                for h in p.hints]
        rows += [("    load  %-20s %-9s %-9s stride %6s  %11d executions  %-7s  %s" % (
                      l["where"], l["function"], l["class"],
                      "-" if l["stride"] is None else l["stride"], l["executions"],
                      "hinted" if l["hinted"] else "NO HINT", l["text"]))
                 for l in p.hot]
        rows += ["    " + d for d in p.decisions] + ["    " + w for w in p.warnings]
        for line, n in grouped(rows):
            print(line + ("  (x%d)" % n if n > 1 else ""))


# --- the no-regression set -----------------------------------------------------

def load_truth():
    path = os.path.join(ROOT, "bench", "truth", "run.py")
    # its own imports (threaded.py) sit beside it
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("truth_run", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.P.log = log
    return mod


COMPILER_LOG = """#!/bin/sh
# The feedback build's compiler: clang with its stderr (the prefetch
# decisions) also appended to the build tree's log.
err=$(mktemp)
%(cc)s "$@" 2>"$err"
rc=$?
if [ -d %(tree)s ]; then cat "$err" >> %(tree)s/.activetime-decisions.log; fi
cat "$err" >&2
rm -f "$err"
exit $rc
"""


class NoRegProgram:
    def __init__(self, name, truth):
        self.name = name
        (self.project, self.extra_main, self.binary, self.args,
         self.stdin) = truth.PROGRAMS[name]
        self.exe = {}
        self.times = {k: {"wall": [], "cpu": []}
                      for k in ("plain", "feedback", "profiled", "plain-again")}
        self.ref_out = None
        self.decisions = []
        self.hints = []
        self.error = None

    def variants(self, P, tools, work, hints=None):
        """plain, profiled and (with hints) feedback; the latter two map their
        build trees to one source path so that the hints' locations agree."""
        def prefix_map(vname):
            tree = os.path.join(work, "%s-%s" % (self.project, vname))
            return ["-fdebug-prefix-map=%s=/activetime-src/%s" % (tree, self.project)]
        vs = {"plain": P.plain_variant()}
        prof = P.activetime_variant(tools.build, ["-mllvm", "-activetime-strides"])
        prof.cflags += prefix_map(prof.name)
        vs["profiled"] = prof
        if hints:
            tree = os.path.join(work, "%s-feedback" % self.project)
            ccs = []
            for cc in (P.CLANG, P.CLANGXX):
                w = os.path.join(work, "feedback-%s-%s" % (self.project, os.path.basename(cc)))
                with open(w, "w") as f:
                    f.write(COMPILER_LOG % {"cc": shutil.which(cc) or cc, "tree": tree})
                os.chmod(w, 0o755)
                ccs.append(w)
            fb = P.Variant("feedback", [ccs[0]], [ccs[1]],
                           ["-O2", "-g"] + tools.feedback_flags(hints) + prefix_map("feedback"),
                           instrumented=True, key_files=[hints] + ccs)
            fb.tool_dir = tools.build
            vs["feedback"] = fb
        return vs

    def build(self, P, tools, work, scratch, latency, jobs):
        kw = {"extra_main": self.extra_main} if self.extra_main else {}
        vs = self.variants(P, tools, work)
        for kind in ("plain", "profiled"):
            tree, outs = P.build(self.project, vs[kind], tools.build, work, jobs, **kw)
            self.exe[kind] = outs[self.binary]
            if self.stdin == "zlib-corpus":
                self.stdin = P.zlib_corpus(work, tree)
        d = profile_dir(work, self.name)
        out, _, _ = timed_run([self.exe["profiled"]] + self.args,
                              clean_env("output=%s/" % d), self.stdin, scratch)
        hints_file = os.path.join(work, "hints-%s.json" % self.name)
        self.hints = hint_rows(tools.export(raws_in(d), hints_file, latency))
        vs = self.variants(P, tools, work, hints_file)
        tree, outs = P.build(self.project, vs["feedback"], tools.build, work, jobs, **kw)
        self.exe["feedback"] = outs[self.binary]
        try:
            with open(os.path.join(tree, ".activetime-decisions.log")) as f:
                self.decisions = decisions(f.read())
        except OSError:
            self.decisions = []

    def run_round(self, rnd, scratch):
        for kind in order(rnd, ("plain", "feedback", "profiled", "plain-again")):
            opts = "write_profile=0" if kind == "profiled" else None
            exe = self.exe["plain" if kind == "plain-again" else kind]
            out, wall, cpu = timed_run([exe] + self.args, clean_env(opts),
                                       self.stdin, scratch)
            c = comparable(out)
            if self.ref_out is None:
                self.ref_out = c
            elif c != self.ref_out:
                raise StepError("the %s build prints something else than plain" % kind)
            self.times[kind]["wall"].append(wall)
            self.times[kind]["cpu"].append(cpu)

    def figures(self):
        t = self.times
        m = {k: {w: median(v[w]) for w in ("wall", "cpu")} for k, v in t.items()}
        rounds = [p / f for p, f in zip(t["plain"]["cpu"], t["feedback"]["cpu"])]
        again = [p / a for p, a in zip(t["plain"]["cpu"], t["plain-again"]["cpu"])]
        return {"median": m,
                "ratio": m["plain"]["cpu"] / m["feedback"]["cpu"],
                "same": m["plain"]["cpu"] / m["plain-again"]["cpu"],
                "same_range": (min(again), max(again)),
                "ratio_wall": m["plain"]["wall"] / m["feedback"]["wall"],
                "range": (min(rounds), max(rounds)),
                "overhead": m["profiled"]["cpu"] / m["plain"]["cpu"],
                "overhead_wall": m["profiled"]["wall"] / m["plain"]["wall"]}


def run_noregress(args, tools, latency, work):
    truth = load_truth()
    import projects as P  # noqa: E402  (on sys.path through bench/truth/run.py)
    P.log = log
    scratch = os.path.join(work, "scratch")
    os.makedirs(scratch, exist_ok=True)
    progs = [NoRegProgram(n, truth) for n in NOREGRESS]
    failed = False
    for p in progs:
        log("%s: building plain / profiled, profiling, feedback build" % p.name)
        try:
            p.build(P, tools, work, scratch, latency, args.jobs)
        except (StepError, RuntimeError, OSError) as e:
            p.error = "build/profile: %s" % e
            failed = True
            log("%s: %s" % (p.name, p.error))
    for rnd in range(args.rounds):
        for p in progs:
            if p.error:
                continue
            log("round %d/%d: %s" % (rnd + 1, args.rounds, p.name))
            try:
                p.run_round(rnd, scratch)
            except StepError as e:
                p.error = "round %d: %s" % (rnd + 1, e)
                failed = True
                log("%s: %s" % (p.name, p.error))
    print()
    print("No-regression set (bench/truth workloads): %d interleaved rounds, medians of "
          "process CPU time (wall in brackets); ratio = plain / feedback (target: none "
          "below %.2fx), same binary = plain / plain again (the noise of a ratio here), "
          "overhead = profiled (write_profile=0) / plain (target <= %.1fx)"
          % (args.rounds, NOREGRESS_TARGET, OVERHEAD_TARGET))
    print("  %-9s %10s %10s %16s %13s %6s %21s %16s %6s %6s %10s" % (
        "program", "plain CPU", "fb CPU", "ratio", "range", "", "same binary (range)",
        "overhead", "", "hints", "prefetches"))
    for p in progs:
        if p.error:
            print("  %-9s FAILED: %s" % (p.name, p.error))
            continue
        f = p.figures()
        m = f["median"]
        print("  %-9s %9.3fs %9.3fs %7.3fx (%.3fx) %5.3f..%.3fx %6s %6.3fx (%.2f..%.2fx) "
              "%7.2fx (%.2fx) %6s %6d %10d" % (
                  p.name, m["plain"]["cpu"], m["feedback"]["cpu"], f["ratio"],
                  f["ratio_wall"], f["range"][0], f["range"][1],
                  verdict(f["ratio"] >= NOREGRESS_TARGET), f["same"],
                  f["same_range"][0], f["same_range"][1], f["overhead"],
                  f["overhead_wall"], verdict(f["overhead"] <= OVERHEAD_TARGET),
                  len(p.hints), len(inserted(p.decisions))))
    # Real programs have hundreds of decisions: counted here, each line in
    # the feedback tree's .activetime-decisions.log (--keep).
    print("  decisions per program (-activetime-print-decisions; every line in "
          "<work>/noregress/<project>-feedback/.activetime-decisions.log):")
    for p in progs:
        if not p.decisions:
            continue
        ins = inserted(p.decisions)
        ind = sum(1 for l in ins if l.startswith("activetime: indirect"))
        why = collections.Counter(l.rsplit(": ", 1)[-1] for l in p.decisions
                                  if l.startswith(REFUSED))
        print("    %s: %d stride and %d indirect prefetches inserted; indirect hints "
              "refused: %s" % (p.name, len(ins) - ind, ind,
                               "; ".join("%d %s" % (n, w) for w, n in why.most_common())
                               or "none"))
    return failed


def main():
    ap = argparse.ArgumentParser(description="Prefetch feedback on programs not "
                                 "written for it (see the header).")
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--keep", help="work (and cache the builds) in this directory "
                    "and keep it")
    ap.add_argument("--only", choices=["memory", "noregress"], help="run one set only")
    ap.add_argument("--latency-ns", type=float,
                    help="export --latency-ns (default: export's own choice)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error("--rounds must be at least 1")
    build = os.path.abspath(a.build_dir)
    work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="at-prefetch-")
    os.makedirs(work, exist_ok=True)
    failed = False
    try:
        tools = Tools(build)
        latency = a.latency_ns
        if latency is None:
            print("Memory latency: export's own choice (each hint file's latency_ns is "
                  "printed with its hints)")
        else:
            print("Memory latency (given, passed to export as --latency-ns): %.1f ns"
                  % latency)
        print("load average at the start: %.2f %.2f %.2f" % os.getloadavg())
        if a.only != "noregress":
            failed |= run_memory(a, tools, latency, os.path.join(work, "memory"))
        if a.only != "memory":
            failed |= run_noregress(a, tools, latency, os.path.join(work, "noregress"))
        print("load average at the end: %.2f %.2f %.2f" % os.getloadavg())
    except StepError as e:
        print("error: %s" % e, file=sys.stderr)
        failed = True
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    if failed:
        print("FAILED: a step failed or an output differed (see above)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
