#!/usr/bin/env python3
#===- bench/truth/run.py - per-function times against an independent truth -===#
#
# Part of ActiveTime. Judges ActiveTime's per-function figures against truth
# that owes nothing to ActiveTime: perf on the UNinstrumented build. Every
# program is built in five variants:
#   plain       clang-19 -O2 -g (the truth)
#   activetime  bin/activetime-clang(++) -O2 -g, ACTIVETIME_OPTIONS=output=DIR/
#               plus --options
#   hooks       -finstrument-functions-after-inlining, empty hooks
#               (bench/overhead/hooks.c): what the call sites alone cost
#   count       the same with counting hooks (count_hooks.c): true call counts
#   xray        XRay profiling mode, as in bench/overhead
# and run in interleaved rounds (order rotated each round): plain, activetime,
# hooks and xray under `perf stat -e task-clock`, and `perf record -e
# cpu-clock --call-graph dwarf` of plain. Per program it prints:
#   self/CPU     ActiveTime's total self-active time over the plain build's
#                task-clock, the mean of plain runs right before and after
#                the activetime run (1.0 when the probes' cost is removed
#                exactly); median over rounds, and the range
#   share dist   total variation distance, in points, between ActiveTime's
#                self-active shares and perf's self shares (each sample
#                charged to its innermost frame in the program's own binary;
#                functions under 1% in both pooled as "rest"); "perf floor"
#                is the same distance between two perf rounds: the noise
#   slowdown     task-clock of activetime, hooks and xray over plain, and
#                activetime's over the hooks' (target <= 1.5)
#   counts       ActiveTime's calls per linkage name against the counting
#                hooks' (the same probes after inlining, so equal counts)
#   parent err   tiny only: the parent's active time per call against its
#                thread CPU time per call in the plain build
# Every variant's stdout must equal plain's (tiny's is not compared: it
# prints a tid and times). Caveats: a negative self-active time (an
# over-corrected parent) is kept as a negative share, so a distance can pass
# 100; perf names one of several aliases (C1/C2 structors), mapped to the
# one ActiveTime reports via nm; on tiny.c perf's cpu-clock samples of the
# ~1 ns callees land on the return address in the parent (skid), and a run
# has ~800 samples, so tiny's share distance and floor say little.
# Programs: lua (calls.lua), zlib (minigzip -9), tinyxml2 (xmlbench),
# sqlite3 (sqlite-workload.sql), yaml-cpp (yamlbench.cpp) from the Debian
# source packages (test/integration/projects.py), and tiny.c flat/deep4.
#
# Multi-threaded programs (bench/truth/threaded.py; --only threaded):
# leveldb 1.23's db_bench (fillrandom,readrandom with 1, 2 and 4 client
# threads beside the background compaction thread) and zstd 1.5.4 -T2 (a
# compression worker pool and asynchronous I/O threads) on a generated
# 48 MiB input. They are built plain and with ActiveTime only, and each
# round runs plain and activetime under perf stat and perf record of plain
# (-F --threaded-freq, default 5000). Their stdout must match plain's with
# db_bench's timings masked (zstd's output is compared by its hash). Per
# program and per thread *role* (tids differ between runs: "main" is the
# process's first thread, the others are named by a marker function they
# ran, threaded.py) it prints:
#   self/CPU     as above; for a role, against the plain build's task-clock
#                times the role's share of perf's cpu-clock in that round
#   share        as above, the role's own functions' shares (perf: the
#                role's samples); floor: perf against perf's next round
#   excess       the largest ActiveTime share minus perf share of any
#                function, in points (target <= +2): time counted in a
#                function that perf saw no CPU time for, e.g. blocked
#   AT x         task-clock of activetime over plain's
# all as median (min..max) over the rounds. Then, for every program, one
# run with ACTIVETIME_OPTIONS=sample=1: each function the time report
# shows as counted with >= 1% share, its share of the on-CPU samples
# (export --format=folded --off-cpu=exclude) against the time report's
# (target within 3 points); and, when bench/truth/bounds.py exists, its
# count on the latest profiles of each program.
#
#===----------------------------------------------------------------------===#

import argparse
import collections
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OVERHEAD = os.path.join(HERE, "..", "overhead")
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "integration"))
import projects as P  # noqa: E402
from elfinfo import load_base  # noqa: E402
import threaded as T  # noqa: E402  (bench/truth/threaded.py)

VARIANTS = ("plain", "activetime", "hooks", "count", "xray")
TIMED = ("plain", "activetime", "hooks", "xray", "perf")  # one round's runs
# Multi-threaded programs: the truth and ActiveTime only (no call counts:
# the hooks are not thread-aware; XRay's profiling mode is not the point).
THREADED_VARIANTS = ("plain", "activetime")
THREADED_TIMED = ("plain", "activetime", "perf")


def log(msg):
    print("[truth] " + msg, file=sys.stderr, flush=True)


P.log = log  # the builds' progress to stderr too: stdout is the table


# --- building ----------------------------------------------------------------

def make_variants(build_dir, objs, at_flags=()):
    xray = ["-fxray-instrument", "-fxray-instruction-threshold=1",
            "-fxray-modes=xray-basic,xray-profiling"]
    ai = ["-O2", "-g", "-finstrument-functions-after-inlining"]
    V = P.Variant
    return {
        "plain": P.plain_variant(),
        "activetime": P.activetime_variant(build_dir, at_flags),
        "hooks": V("hooks", [P.CLANG], [P.CLANGXX], ai, link_extra=[objs["hooks"]]),
        "count": V("count", [P.CLANG], [P.CLANGXX], ai, link_extra=[objs["count"]]),
        "xray": V("xray", [P.CLANG], [P.CLANGXX], ["-O2", "-g"] + xray,
                  ldflags=["-Wl,--wrap=main"], link_extra=[objs["xray_init"]]),
    }


def helper_objects(work):
    """The uninstrumented hook objects the variants link."""
    srcs = {"hooks": os.path.join(OVERHEAD, "hooks.c"),
            "count": os.path.join(HERE, "count_hooks.c"),
            "xray_init": os.path.join(OVERHEAD, "xray_profiling_init.c")}
    objs = {}
    for name, src in srcs.items():
        objs[name] = os.path.join(work, name + ".o")
        P.run([P.CLANG, "-O2", "-c", src, "-o", objs[name]])
    return objs


def build_tiny(v, work):
    d = os.path.join(work, "tiny-" + v.name)
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "tiny")
    P.run(v.cc + v.cflags + v.ldflags + [os.path.join(HERE, "tiny.c"), "-o", exe] + v.link_extra)
    return exe


# name: (project, extra_main, binary, args, stdin); project None = tiny.c
PROGRAMS = collections.OrderedDict([
    ("lua", ("lua", None, "lua", [os.path.join(OVERHEAD, "calls.lua"), "3"], None)),
    ("zlib", ("zlib", None, "minigzip", ["-9"], "zlib-corpus")),
    ("tinyxml2", ("tinyxml2", os.path.join(OVERHEAD, "xmlbench.cpp"), "xmlbench",
                  ["20000", "6"], None)),
    ("sqlite3", ("sqlite3", None, "sqlite3", [":memory:"],
                 os.path.join(HERE, "sqlite-workload.sql"))),
    ("yaml-cpp", ("yaml-cpp", os.path.join(HERE, "yamlbench.cpp"), "yamlbench",
                  ["700", "4"], None)),
    # ~30 ms of parent each: at 5 M iterations (7 ms) a round's error
    # swung by +-25% between processes.
    ("tiny-flat", (None, None, "tiny", ["flat", "20000000"], None)),
    ("tiny-deep4", (None, None, "tiny", ["deep4", "12000000"], None)),
])


ALL = list(PROGRAMS) + list(T.THREADED)


class Program:
    def __init__(self, name):
        self.name = name
        self.spec = T.THREADED.get(name)
        self.threaded = self.spec is not None
        if self.threaded:
            self.project, self.binary = self.spec["project"], self.spec["binary"]
            self.extra_main, self.args, self.stdin = None, self.spec["args"], None
        else:
            self.project, self.extra_main, self.binary, self.args, self.stdin = PROGRAMS[name]
        self.variants = THREADED_VARIANTS if self.threaded else VARIANTS
        self.timed = THREADED_TIMED if self.threaded else TIMED
        self.tiny = self.project is None
        self.exe = {}  # variant -> path
        self.own_dsos = {}  # variant -> the binary and the program's own libraries
        self.error = None
        self.ref_stdout = None
        self.runs = {k: [] for k in self.timed}  # per round: task-clock ms (perf: shares)
        self.at = []  # per round: summary of ActiveTime's report
        self.adjacent_plain = []  # per round: plain CPU ms around the AT run
        self.truth = []  # tiny: per round (parent, ns, calls) from plain's stdout
        self.count_offsets = {}  # {offset from load base: calls}, count variant
        self.counts = None  # the same by linkage name
        self.last_raws = []  # the latest ActiveTime run's profiles (bounds.py)
        self.sampled = None  # the sample=1 run against its time report

    def build(self, vs, build_dir, work, jobs, scratch):
        for name in self.variants:
            v = vs[name]
            if self.tiny:
                self.exe[name] = build_tiny(v, work)
                continue
            kw = {"extra_main": self.extra_main} if self.extra_main else {}
            tree, outs = P.build(self.project, v, build_dir, work, jobs, **kw)
            self.exe[name] = outs[self.binary]
            if self.threaded:
                # the program's own shared libraries: perf charges their
                # samples to their own functions, as the binary's
                self.own_dsos[name] = [outs[self.binary]] + [outs[l] for l in
                                                             self.spec.get("libs", [])]
            if self.stdin == "zlib-corpus":
                self.stdin = P.zlib_corpus(work, tree)
        if self.threaded:
            self.args = T.prepare_args(self.spec, self.name, work, scratch)

    def cmd(self, variant):
        return [self.exe[variant]] + self.args


# --- running -----------------------------------------------------------------

def clean_env(**extra):
    env = dict(os.environ)
    for k in ("ACTIVETIME_OPTIONS", "XRAY_OPTIONS", "COUNT_HOOKS_OUT"):
        env.pop(k, None)
    env.update(extra)
    return env


def run_cmd(cmd, env, stdin, cwd):
    with open(stdin or os.devnull, "rb") as fin:
        r = subprocess.run(cmd, env=env, stdin=fin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=cwd)
    if r.returncode != 0:
        prog = cmd[cmd.index("--") + 1:] if "--" in cmd else cmd
        err = r.stderr.decode(errors="replace").strip().splitlines() or [""]
        raise RuntimeError("%s exited %d: %s" % (" ".join([os.path.basename(prog[0])] + prog[1:]),
                                                 r.returncode, err[-1][:160]))
    return r.stdout


def perf_stat(prog, variant, env, scratch):
    """(task-clock ms, stdout) of one run of `variant` under perf stat."""
    stat = os.path.join(scratch, "stat.txt")
    out = run_cmd(["perf", "stat", "-x,", "-e", "task-clock", "-o", stat, "--"] +
                  prog.cmd(variant), env, prog.stdin, scratch)
    with open(stat) as f:
        for line in f:
            fields = line.strip().split(",")
            if len(fields) > 2 and fields[2].startswith("task-clock"):
                return float(fields[0]), out
    raise RuntimeError("perf stat printed no task-clock for %s" % variant)


def check_stdout(prog, variant, out):
    if prog.tiny:
        return
    if prog.threaded:
        out = T.comparable_stdout(prog.spec, out)
    if prog.ref_stdout is None:
        prog.ref_stdout = out
    elif out != prog.ref_stdout:
        raise RuntimeError("%s prints something else than plain" % variant)


def run_plain(prog, args, scratch):
    ms, out = perf_stat(prog, "plain", clean_env(), scratch)
    check_stdout(prog, "plain", out)
    if prog.tiny:
        f = out.decode().split()
        if len(f) < 6 or f[0] != "truth":
            raise RuntimeError("tiny printed no truth line: %r" % out[:200])
        prog.truth.append((f[3], int(f[4]), int(f[5])))
    return ms


def run_activetime(prog, args, scratch):
    d = tempfile.mkdtemp(prefix="at-", dir=scratch)
    opts = "output=%s/" % d + (":" + args.options if args.options else "")
    # The plain CPU time the total is judged against is taken right before
    # and right after this run: the machine's speed drifts over a round.
    before, _ = perf_stat(prog, "plain", clean_env(), scratch)
    ms, out = perf_stat(prog, "activetime", clean_env(ACTIVETIME_OPTIONS=opts), scratch)
    after, _ = perf_stat(prog, "plain", clean_env(), scratch)
    prog.adjacent_plain.append((before + after) / 2)
    check_stdout(prog, "activetime", out)
    raws = sorted(glob.glob(os.path.join(d, "*.raw")))
    if not raws:
        raise RuntimeError("activetime run wrote no profile into %s" % d)
    s = at_summary(args.build_dir, raws)
    if prog.threaded:
        s["roles"] = T.at_roles(s.pop("threads"), prog.spec["roles"])
    else:
        s.pop("threads")
    prog.at.append(s)
    keep(args, prog, len(prog.at) - 1, raws)
    prog.last_raws = keep_last(prog, scratch, raws)
    shutil.rmtree(d)
    return ms


def keep_last(prog, scratch, raws):
    """The latest run's profiles, kept until the end for bounds.py."""
    d = os.path.join(scratch, "last", prog.name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for f in raws:
        shutil.copy(f, d)
    return [os.path.join(d, os.path.basename(f)) for f in raws]


def run_hooks(prog, args, scratch):
    ms, out = perf_stat(prog, "hooks", clean_env(), scratch)
    check_stdout(prog, "hooks", out)
    return ms


def run_xray(prog, args, scratch):
    d = tempfile.mkdtemp(prefix="xray-", dir=scratch)
    env = clean_env(XRAY_OPTIONS="patch_premain=true xray_mode=xray-profiling verbosity=0 "
                                 "xray_logfile_base=%s/xray-log." % d)
    ms, out = perf_stat(prog, "xray", env, scratch)
    check_stdout(prog, "xray", out)
    shutil.rmtree(d)
    return ms


def run_perf_record(prog, args, scratch):
    """perf's self shares of the plain build: {name: share}, plus sample counts."""
    data = os.path.join(scratch, "perf.data")
    freq = args.threaded_freq if prog.threaded else args.freq
    out = run_cmd(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(freq),
                   "--call-graph", "dwarf", "-o", data, "--"] + prog.cmd("plain"),
                  clean_env(), prog.stdin, scratch)
    check_stdout(prog, "perf record of plain", out)
    if prog.threaded:
        return threaded_perf_record(prog, args, data)
    samples, dropped = perf_self_samples(data, prog.exe["plain"])
    os.unlink(data)
    keep(args, prog, len(prog.runs["perf"]), [], {"perf-samples.json": samples})
    total = sum(samples.values())
    shares = {k: n / total for k, n in samples.items()} if total else {}
    return {"shares": shares, "samples": total, "dropped": dropped}


def threaded_perf_record(prog, args, data):
    """perf's per-role self weights (cpu-clock ns) of a threaded program."""
    roles = T.perf_thread_samples(data, prog.own_dsos["plain"], prog.spec["roles"])
    os.unlink(data)
    keep(args, prog, len(prog.runs["perf"]), [], {"perf-roles.json": roles})
    program_self = T.perf_program_shares(roles)
    return {"roles": roles, "program_self": dict(program_self),
            "samples_ns": sum(g["weight"] for g in roles.values()),
            "dropped_ns": sum(g["dropped"] for g in roles.values())}


RUNNERS = {"plain": run_plain, "activetime": run_activetime, "hooks": run_hooks,
           "xray": run_xray, "perf": run_perf_record}


def run_count(prog, scratch):
    """Call counts per name from the counting-hooks build."""
    out_file = os.path.join(scratch, "counts.txt")
    out = run_cmd(prog.cmd("count"), clean_env(COUNT_HOOKS_OUT=out_file), prog.stdin, scratch)
    check_stdout(prog, "count", out)
    by_off = {}
    with open(out_file) as f:
        for line in f:
            if not line.startswith("#"):
                off, n = line.split()
                by_off[int(off, 16)] = int(n)
    return by_off


def keep(args, prog, rnd, files, blobs=None):
    if not args.keep:
        return
    d = os.path.join(args.keep, prog.name, "round%s" % rnd)
    os.makedirs(d, exist_ok=True)
    for f in files:
        shutil.copy(f, d)
    for name, obj in (blobs or {}).items():
        with open(os.path.join(d, name), "w") as fh:
            json.dump(obj, fh, indent=0, sort_keys=True)


# --- reading profiles --------------------------------------------------------

def at_summary(build_dir, raws):
    """Per linkage name sums of ActiveTime's report: self, active, calls."""
    r = subprocess.run([os.path.join(build_dir, "bin", "activetime"), "report", "--json"] + raws,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("activetime report failed: " + r.stderr.strip()[-400:])
    doc = json.loads(r.stdout)
    s = {"total_self": doc.get("total_self_active_ns"), "self": collections.Counter(),
         "active": collections.Counter(), "calls": collections.Counter(), "missing": set(),
         "threads": T.at_threads(doc)}
    for f in doc.get("functions", []):
        name = f.get("linkage_name") or f.get("name")
        for key, field in (("self", "self_active_ns"), ("active", "active_ns"), ("calls", "calls")):
            if f.get(field) is not None:  # null: a counted function's per-call figure
                s[key][name] += f[field]
            elif field in f:
                continue
            else:
                s["missing"].add(field)
    return s


def perf_self_samples(data, binary):
    """Samples per function of `binary`: each sample charged to its innermost
    frame in the binary itself (not libc, ld.so, vdso, kernel, PLT stubs or
    unknown symbols); a sample with no such frame is dropped."""
    r = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym,dso", "--no-inline",
                        "--no-demangle"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True, errors="replace")
    if r.returncode != 0:
        raise RuntimeError("perf script failed")
    binary = os.path.realpath(binary)
    counts, dropped, frame = collections.Counter(), 0, None
    in_sample = False
    for line in r.stdout.splitlines() + [""]:
        line = line.strip()
        if not line:
            if in_sample:
                if frame:
                    counts[frame] += 1
                else:
                    dropped += 1
            in_sample, frame = False, None
            continue
        in_sample = True
        if frame is None:
            frame = own_frame(line, binary)
    return dict(counts), dropped


def own_frame(line, binary):
    """The symbol of a perf script frame line if it is the program's own."""
    if not line.endswith(")") or " (" not in line:
        return None
    head, dso = line[:-1].rsplit(" (", 1)
    parts = head.split(None, 1)
    if len(parts) < 2 or dso != binary:
        return None
    sym = parts[1]
    if sym == "[unknown]" or sym.endswith("@plt"):
        return None
    return sym


def names_by_offset(exe):
    """{offset from the load base: [function names]} from nm."""
    out = subprocess.run(["nm", "--defined-only", exe], stdout=subprocess.PIPE, text=True).stdout
    base = load_base(exe)
    names = collections.defaultdict(list)
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwWi":
            names[int(f[0], 16) - base].append(f[2])
    return names


def pick(names, prefer):
    """Of aliases (e.g. C1/C2 constructors, one body) the name ActiveTime
    reports, else the first in order."""
    names = sorted(names)
    return ([n for n in names if n in prefer] or names)[0]


def counts_by_name(exe, by_off, prefer):
    names = names_by_offset(exe)
    res = collections.Counter()
    for off, n in by_off.items():
        res[pick(names.get(off, ["?0x%x" % off]), prefer)] += n
    return res


def alias_map(exe, prefer):
    """{alias: the name ActiveTime knows}: perf names one of the aliases."""
    m = {}
    for names in names_by_offset(exe).values():
        if len(names) > 1:
            m.update((n, pick(names, prefer)) for n in names)
    return m


def canonical(shares, aliases):
    out = collections.Counter()
    for k, v in shares.items():
        out[aliases.get(k, k)] += v
    return dict(out)


# --- figures -----------------------------------------------------------------

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


share_distance = T.share_distance  # one definition for both kinds of program


def at_shares(s):
    total = sum(s["self"].values())
    if not total or "self_active_ns" in s["missing"]:
        return None
    return {k: v / total for k, v in s["self"].items()}


def ratio(a, b):
    return a / b if a is not None and b else None


def figures(prog):
    plain = prog.runs["plain"]
    f = {"rounds": len(plain), "cpu_ms": med(plain)}
    f["self_cpu"] = [ratio(s["total_self"] / 1e6 if s["total_self"] is not None else None,
                           ms) for s, ms in zip(prog.at, prog.adjacent_plain)]
    f["self_cpu_median"] = med(f["self_cpu"])
    f.update(share_figures(prog))
    for k in ("activetime", "hooks", "xray"):
        f[k + "_ms"] = med(prog.runs[k])
        f[k + "_slowdown"] = ratio(f[k + "_ms"], f["cpu_ms"])
    f["at_over_hooks"] = ratio(f["activetime_slowdown"], f["hooks_slowdown"])
    if prog.tiny:
        f["parent_err"] = parent_errors(prog)
        f["parent_err_median"] = med(f["parent_err"])
    return f


def share_figures(prog):
    """Distance of each round's ActiveTime shares from the same round's perf
    shares, and perf's from the next round's perf (the floor)."""
    perf = [r["shares"] for r in prog.runs["perf"]]
    ats = [at_shares(s) for s in prog.at]
    dist = [share_distance(a, p) if a is not None else None for a, p in zip(ats, perf)]
    return {"share_dist": dist, "share_dist_median": med(dist),
            "perf_floor": med([share_distance(perf[i], perf[(i + 1) % len(perf)])
                               for i in range(len(perf))]),
            "perf_samples": [r["samples"] for r in prog.runs["perf"]],
            "perf_dropped": [r["dropped"] for r in prog.runs["perf"]],
            "shares": share_table(ats, perf)}


def share_table(ats, perf):
    """Mean share per function over the rounds, ActiveTime and perf."""
    def mean(dists):
        dists = [d for d in dists if d is not None]
        acc = collections.Counter()
        for d in dists:
            for k, v in d.items():
                acc[k] += v / len(dists)
        return acc
    a, p = mean(ats), mean(perf)
    rows = [(k, a.get(k, 0.0), p.get(k, 0.0), k in a, k in p) for k in set(a) | set(p)]
    rows.sort(key=lambda r: -abs(r[1] - r[2]))
    return [{"name": k, "activetime": x, "perf": y, "in_activetime": ia, "in_perf": ip}
            for k, x, y, ia, ip in rows[:100]]


def parent_errors(prog):
    errs = []
    for (parent, ns, calls), s in zip(prog.truth, prog.at):
        if parent not in s["active"] or "active_ns" in s["missing"] or not ns:
            errs.append(None)
            continue
        errs.append(100.0 * (s["active"][parent] / calls - ns / calls) / (ns / calls))
    return errs


def count_figures(prog):
    at = prog.at[0]["calls"] if prog.at else {}
    truth = prog.counts or {}
    both = sorted(set(at) & set(truth))
    bad = [(k, at[k], truth[k]) for k in both if at[k] != truth[k]]
    bad.sort(key=lambda r: -abs(r[1] - r[2]))
    return {"exact": len(both) - len(bad), "both": len(both),
            "mismatches": [{"name": k, "activetime": a, "hooks": t} for k, a, t in bad],
            "only_activetime": sorted((k for k in at if k not in truth and at[k] > 0),
                                      key=lambda k: -at[k]),
            "only_hooks": sorted((k for k in truth if k not in at and truth[k] > 0),
                                 key=lambda k: -truth[k]),
            "at_calls": dict(at), "hook_calls": dict(truth)}


# --- the rounds --------------------------------------------------------------

def describe(e):
    """An exception in one line: P.run's carry the failing command's stderr."""
    lines = [l for l in str(e).strip().splitlines() if l.strip()] or [""]
    what = lines[0] if len(lines) == 1 else lines[0][:80] + " ... " + lines[-1]
    return (what if isinstance(e, RuntimeError) else "%s: %s" % (type(e).__name__, what))[:240]


def rotate(xs, i):
    i %= len(xs)
    return xs[i:] + xs[:i]


def prepare(prog, vs, args, scratch):
    try:
        prog.build(vs, args.build_dir, args.work, args.jobs, scratch)
        if not prog.threaded:
            prog.count_offsets = run_count(prog, scratch)
    except Exception as e:  # noqa: BLE001 - reported as the program's row
        prog.error = "build/count: " + describe(e)
        log("%s: %s" % (prog.name, prog.error))


def run_round(progs, rnd, args, scratch):
    for prog in rotate(progs, rnd):
        if prog.error:
            continue
        log("round %d/%d: %s" % (rnd + 1, args.rounds, prog.name))
        try:
            for kind in rotate(list(prog.timed), rnd):
                prog.runs[kind].append(RUNNERS[kind](prog, args, scratch))
        except Exception as e:  # noqa: BLE001
            prog.error = "round %d: %s" % (rnd + 1, describe(e))
            log("%s: %s" % (prog.name, prog.error))


def finish(prog):
    """Figures of a program whose rounds ran; names for the counts need a
    profile (aliases resolved to the name ActiveTime knows)."""
    if prog.error:
        return {"error": prog.error}
    if prog.threaded:
        return finish_threaded(prog)
    try:
        prefer = set().union(*(s["calls"] for s in prog.at))
        prog.counts = counts_by_name(prog.exe["count"], prog.count_offsets, prefer)
        aliases = alias_map(prog.exe["plain"], prefer)
        for r in prog.runs["perf"]:
            r["shares"] = canonical(r["shares"], aliases)
        f = figures(prog)
        f["counts"] = count_figures(prog)
        return f
    except Exception as e:  # noqa: BLE001
        return {"error": "figures: " + describe(e)}


def finish_threaded(prog):
    """Figures of a threaded program: the whole and per thread role."""
    try:
        prefer = set().union(*(s["calls"] for s in prog.at))
        aliases = alias_map(prog.exe["plain"], prefer)
        for r in prog.runs["perf"]:
            r["program_self"] = canonical(r["program_self"], aliases)
            for g in r["roles"].values():
                g["self"] = canonical(g["self"], aliases)
        f = T.program_figures(prog)
        f["perf_samples_ms"] = [r["samples_ns"] / 1e6 for r in prog.runs["perf"]]
        f["perf_dropped_ms"] = [r["dropped_ns"] / 1e6 for r in prog.runs["perf"]]
        f["shares"] = share_table([T.normalize(a["self"]) for a in prog.at],
                                  [T.normalize(r["program_self"]) for r in prog.runs["perf"]])
        return f
    except Exception as e:  # noqa: BLE001
        return {"error": "figures: " + describe(e)}


def run_sampled(prog, args, scratch):
    """One run with sample=1: the sampled view's shares of the functions the
    time report shows as counted, against the time report's."""
    if prog.error:
        return
    d = tempfile.mkdtemp(prefix="sampled-", dir=scratch)
    # A sample every ms (10 times the default): a share from the samples is
    # as precise as their number, and these runs last a second or two.
    opts = ("output=%s/:sample=1:sample_interval_us=1000" % d +
            (":" + args.options if args.options else ""))
    try:
        log("sample=1 run: %s" % prog.name)
        _, out = perf_stat(prog, "activetime", clean_env(ACTIVETIME_OPTIONS=opts), scratch)
        check_stdout(prog, "activetime sample=1", out)
        raws = sorted(glob.glob(os.path.join(d, "*.raw")))
        if not raws:
            raise RuntimeError("the sample=1 run wrote no profile")
        keep(args, prog, "-sampled", raws)
        prog.sampled = T.sampled_check(os.path.join(args.build_dir, "bin", "activetime"), raws)
        if not prog.last_raws:  # --rounds 0: bounds.py reads these
            prog.last_raws = keep_last(prog, scratch, raws)
    except Exception as e:  # noqa: BLE001 - reported in its section
        prog.sampled = {"error": describe(e)}
    shutil.rmtree(d, ignore_errors=True)


BOUNDS = os.path.join(HERE, "bounds.py")


def run_bounds(prog, build_dir):
    """bench/truth/bounds.py's count of printed figures outside their own
    +-95% on the latest profiles, if that script exists: its count line,
    after any profile it could not check (a count of 0 of 0 proves nothing)."""
    if not os.path.exists(BOUNDS) or not prog.last_raws:
        return None
    tool = os.path.join(build_dir, "bin", "activetime")
    r = subprocess.run([sys.executable, BOUNDS, "--quiet", "--activetime", tool] + prog.last_raws,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    if r.returncode != 0:
        return "failed (%d): %s" % (r.returncode, (r.stderr.strip().splitlines() or [""])[-1])
    failed = [l for l in lines if "cannot check" in l]
    return "; ".join(failed + lines[-1:]) if lines else "(printed nothing)"


# --- printing ----------------------------------------------------------------

def fmt(x, spec, suffix=""):
    return "n/a" if x is None else (spec % x) + suffix


COLS = [("program", 10), ("CPU ms", 7), ("self/CPU (range)", 18), ("share", 6),
        ("floor", 6), ("AT x", 6), ("hooks x", 7), ("AT/hk", 6), ("xray x", 6),
        ("counts", 11), ("parent/call", 11)]


def row_cells(name, f):
    if "error" in f:
        return [name, "error: " + f["error"]]
    sc = [x for x in f["self_cpu"] if x is not None]
    rng = "%.2f (%.2f-%.2f)" % (f["self_cpu_median"], min(sc), max(sc)) if sc else "n/a"
    c = f["counts"]
    return [name, fmt(f["cpu_ms"], "%.0f"), rng, fmt(f["share_dist_median"], "%.1f"),
            fmt(f["perf_floor"], "%.1f"), fmt(f["activetime_slowdown"], "%.2f"),
            fmt(f["hooks_slowdown"], "%.2f"), fmt(f["at_over_hooks"], "%.2f"),
            fmt(f["xray_slowdown"], "%.2f"), "%d/%d" % (c["exact"], c["both"]),
            fmt(f.get("parent_err_median"), "%+.1f", "%") if "parent_err" in f else "-"]


def print_table(results, args, load0):
    print("%-*s " % (COLS[0][1], COLS[0][0]) +
          " ".join("%*s" % (w, h) for h, w in COLS[1:]))
    for name, f in results.items():
        cells = row_cells(name, f)
        if len(cells) == 2:
            print("%-*s %s" % (COLS[0][1], cells[0], cells[1]))
        else:
            print("%-*s " % (COLS[0][1], cells[0]) +
                  " ".join("%*s" % (w, c) for (_, w), c in zip(COLS[1:], cells[1:])))
    load1 = os.getloadavg()
    print("%d rounds, perf record -F %d, load average %.2f %.2f %.2f (start) %.2f %.2f %.2f "
          "(end); share/floor in points; x = task-clock over plain's"
          % (args.rounds, args.freq, *load0, *load1))


def print_details(results):
    for name, f in results.items():
        if "error" in f:
            continue
        c = f["counts"]
        lines = ["%s (AT %d, hooks %d)" % (m["name"], m["activetime"], m["hooks"])
                 for m in c["mismatches"][:5]]
        print("\n%s: perf samples/round %s, dropped %s" %
              (name, f["perf_samples"], f["perf_dropped"]))
        if lines:
            print("  count mismatches: " + "; ".join(lines))
        for side in ("only_activetime", "only_hooks"):
            if c[side]:
                more = " (+%d more)" % (len(c[side]) - 8) if len(c[side]) > 8 else ""
                print("  %s: %s%s" % (side, " ".join(c[side][:8]), more))
        top = ["%s %.1f/%.1f%s" % (r["name"], 100 * r["activetime"], 100 * r["perf"],
                                   "" if r["in_activetime"] else " (not in AT)")
               for r in f["shares"][:4]]
        if f["share_dist_median"] is not None:
            print("  largest share gaps (AT/perf %): " + "; ".join(top))


def med_range(s, spec, sign=""):
    """ "median (min..max)" of a T.summary."""
    if s["median"] is None:
        return "n/a"
    f = "%" + sign + spec
    return (f + " (" + f + ".." + f + ")") % (s["median"], s["min"], s["max"])


THREADED_COLS = [("program", 11), ("role", 16), ("thr", 5), ("CPU ms", 7),
                 ("self/CPU (range)", 18), ("share (range)", 17), ("floor", 5),
                 ("excess (range)", 19), ("AT x (range)", 17)]


def threaded_row(name, role, f, thr):
    return [name, role, thr, T.fmt_num(f["cpu_ms"]["median"], "%.0f"),
            med_range(f["self_cpu"], ".2f"), med_range(f["share_dist"], ".1f"),
            T.fmt_num(f["perf_floor"]["median"], "%.1f"), med_range(f["excess"], ".1f", "+"),
            med_range(f["slowdown"], ".2f") if "slowdown" in f else ""]


def print_threaded(results, args):
    print("\nThreaded programs (per thread role; share/floor/excess in points; "
          "perf record -F %d; thr = threads AT/perf in the last round)" % args.threaded_freq)
    print(" ".join("%-*s" % (w, h) if i < 3 else "%*s" % (w, h)
                   for i, (h, w) in enumerate(THREADED_COLS)))
    for name, f in results.items():
        if "error" in f:
            print("%-*s error: %s" % (THREADED_COLS[0][1], name, f["error"]))
            continue
        rows = [threaded_row(name, "all", f, "")]
        for role, rf in f["roles"].items():
            thr = "%d/%d" % (rf["threads_at"][-1], rf["threads_perf"][-1])
            rows.append(threaded_row("", role, rf, thr))
        for cells in rows:
            print(" ".join("%-*s" % (w, c) if i < 3 else "%*s" % (w, c)
                           for i, ((_, w), c) in enumerate(zip(THREADED_COLS, cells))))
    for name, f in results.items():
        if "error" in f:
            continue
        print("\n%s: perf cpu-clock ms/round %s, without an own frame %s" %
              (name, " ".join("%.0f" % x for x in f["perf_samples_ms"]),
               " ".join("%.0f" % x for x in f["perf_dropped_ms"])))
        groups = [("all", f)] + list(f["roles"].items())
        print("  largest excess (round-mean shares): " + "; ".join(
            "%s %s %+.1f" % (g, T.short(gf["mean_excess_function"]), gf["mean_excess"])
            for g, gf in groups if gf["mean_excess"] is not None))
        top = ["%s %.1f/%.1f" % (T.short(r["name"]), 100 * r["activetime"], 100 * r["perf"])
               for r in f["shares"][:5]]
        print("  largest share gaps (AT/perf %): " + "; ".join(top))


def print_sampled(progs):
    print("\nSampled view (sample=1, one run): share of on-CPU samples against the time "
          "report, functions the time report shows as counted with >= 1% (target: within 3)")
    for prog in progs:
        s = prog.sampled
        if s is None:
            continue
        if "error" in s:
            print("%s: error: %s" % (prog.name, s["error"]))
            continue
        within = sum(1 for r in s["rows"] if abs(r["diff"]) <= 3.0)
        print("%s: %d of %d within 3 points (%s; %d on-CPU samples, so a share of "
              "50%% is itself +-%.1f points, 95%%)" % (
                  prog.name, within, len(s["rows"]), s["source"], s["samples"],
                  100 * 1.96 * (0.25 / max(s["samples"], 1)) ** 0.5))
        for r in sorted(s["rows"], key=lambda r: -abs(r["diff"]))[:8]:
            print("  %-40s time %5.1f  sampled %5.1f  %+5.1f" %
                  (T.short(r["name"])[:40], r["time"], r["sampled"], r["diff"]))


def print_bounds(progs):
    lines = [(p.name, p.bounds) for p in progs if getattr(p, "bounds", None)]
    if not os.path.exists(BOUNDS):
        print("\nbounds.py: not present (%s), skipped" % os.path.relpath(BOUNDS))
        return
    print("\nbench/truth/bounds.py on the latest profiles (figures outside their own +-95%):")
    for name, line in lines:
        print("  %-12s %s" % (name, line))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work", help="build cache (default <build>/bench-truth)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="0: only the sample=1 run of each program (and bounds.py)")
    ap.add_argument("--only", "--programs", dest="programs", default="all",
                    help="comma-separated programs or groups: " + ",".join(ALL) +
                    "; groups: single (the single-threaded ones), threaded, all")
    ap.add_argument("--freq", type=int, default=20000, help="perf record -F")
    ap.add_argument("--threaded-freq", type=int, default=5000,
                    help="perf record -F of the threaded programs (seconds of CPU, "
                    "dwarf call chains: perf script's time grows with the samples)")
    ap.add_argument("--no-sampled", action="store_true",
                    help="skip the sample=1 run of each program")
    ap.add_argument("--options", default="", help="extra ACTIVETIME_OPTIONS (a:b=c)")
    ap.add_argument("--at-flags", default="",
                    help="extra compiler flags of the ActiveTime build, space-separated "
                    "(e.g. '-mllvm -activetime-clone-max-size=400'; its own cached build)")
    ap.add_argument("--keep", help="keep profiles and perf's per-function samples here")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.work = os.path.abspath(args.work or os.path.join(args.build_dir, "bench-truth"))
    if args.keep:
        args.keep = os.path.abspath(args.keep)
    names = expand_programs(args.programs)
    unknown = [n for n in names if n not in ALL]
    if unknown:
        ap.error("unknown program(s): " + ",".join(unknown))
    os.makedirs(args.work, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="scratch-", dir=args.work)
    try:
        vs = make_variants(args.build_dir, helper_objects(args.work), args.at_flags.split())
        progs = [Program(n) for n in names]
        for prog in progs:
            prepare(prog, vs, args, scratch)
        load0 = os.getloadavg()
        for rnd in range(args.rounds):
            run_round(progs, rnd, args, scratch)
        for prog in progs:
            if not args.no_sampled:
                run_sampled(prog, args, scratch)
            prog.bounds = run_bounds(prog, args.build_dir)
        results = collections.OrderedDict((p.name, finish(p)) for p in progs
                                          if args.rounds > 0)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    single = collections.OrderedDict((n, f) for n, f in results.items() if n in PROGRAMS)
    threaded = collections.OrderedDict((n, f) for n, f in results.items() if n in T.THREADED)
    if single:
        print_table(single, args, load0)
        print_details(single)
    if threaded:
        print_threaded(threaded, args)
        if not single:
            load1 = os.getloadavg()
            print("%d rounds, load average %.2f %.2f %.2f (start) %.2f %.2f %.2f (end)"
                  % (args.rounds, *load0, *load1))
    if not args.no_sampled:
        print_sampled(progs)
    print_bounds(progs)
    if args.json:
        for p in progs:
            if p.name in results:
                results[p.name]["sampled"] = p.sampled
                results[p.name]["bounds"] = p.bounds
        with open(args.json, "w") as f:
            json.dump({"rounds": args.rounds, "freq": args.freq,
                       "threaded_freq": args.threaded_freq, "options": args.options,
                       "at_flags": args.at_flags,
                       "programs": results}, f, indent=1, sort_keys=True, default=sorted)
    return 0


def expand_programs(spec):
    groups = {"all": ALL, "single": list(PROGRAMS), "threaded": list(T.THREADED)}
    names = []
    for n in (x for x in spec.split(",") if x):
        for m in groups.get(n, [n]):
            if m not in names:
                names.append(m)
    return names


if __name__ == "__main__":
    sys.exit(main())
