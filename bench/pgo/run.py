#!/usr/bin/env python3
#===- bench/pgo/run.py - what profile-guided optimization gains ------------===#
#
# Part of ActiveTime. Measures how much of what LLVM's own instrumented PGO
# gains on real programs a build optimized with an ActiveTime profile gains.
# Every program is built in these variants:
#   plain                 clang-19 -O2 -g, no profile (the baseline)
#   instr-pgo             clang-19 -O2 -g -fprofile-instr-use=instr.profdata,
#                         the profile from LLVM's IR PGO build's
#                         (-fprofile-generate) training run
#                         (LLVM_PROFILE_FILE=DIR/%p.profraw, llvm-profdata-19
#                         merge): exact edge counts, the ceiling a
#                         profile-guided build reaches here
#   activetime-train      clang-19 -O2 -g $(activetime pgo-flags use P), P
#                         from the training build's run (activetime-clang(++)
#                         -O2 -g $(activetime pgo-flags train)) turned into
#                         an indexed profile by `activetime export
#                         --format=pgo`: what docs/pgo.md tells users to do
#   activetime-pgo        clang-19 -O2 -g -fdebug-info-for-profiling
#                         -fprofile-sample-use=activetime.prof, the profile
#                         from an activetime-clang(++) -O2 -g
#                         -fdebug-info-for-profiling build's training run
#                         (ACTIVETIME_OPTIONS=output=DIR/%e.%p.raw) turned
#                         into a sample profile by `activetime export
#                         --format=sample-profile`
#   activetime-pgo-profi  the same plus -mllvm -sample-profile-use-profi
#                         (profile inference: consistent block counts)
# The two training builds themselves run in the rounds too (instr-gen and
# at-train-gen, their speedup below 1: the training run's slowdown).
# The training run uses the same workload as the timed runs (the best case:
# how well each profile guides the optimizer), except for leveldb and zstd
# (TRAINING_ARGS: other benchmarks, another level and input), where it
# measures how well a training workload generalizes.
# After a program's builds, its variants run in interleaved rounds (the order
# rotated each round) under `perf stat -e task-clock`: the CPU time, user and
# system, of the program's process. Each run's stdout must equal plain's.
# Per program and variant it prints the median CPU ms over the rounds (and
# the range), the speedup plain/variant of the medians, and for the
# ActiveTime variants the fraction of instr PGO's gain they reach,
# (plain/at - 1) / (plain/instr - 1): 1.0 gains as much as instr PGO, 0 gains
# nothing, negative is slower than plain; "n/a" when instr PGO gained under
# 2% (the fraction of a gain within the noise means nothing). The machine is
# noisy: the medians of interleaved rounds are what to trust, the ranges say
# how far to trust them.
# Programs: those of bench/truth/run.py (its PROGRAMS table, without the
# synthetic tiny.c ones) and two threaded ones (leveldb, zstd -T2), built
# from the Debian source packages by test/integration/projects.py, whose
# builds are cached by flags and profile contents (a new profile is a new
# build).
#
#===----------------------------------------------------------------------===#

import argparse
import collections
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def load_truth():
    """bench/truth/run.py as a module: its programs, runners and helpers
    (it imports its neighbour threaded.py)."""
    sys.path.insert(0, os.path.join(HERE, "..", "truth"))
    spec = importlib.util.spec_from_file_location(
        "bench_truth_run", os.path.join(HERE, "..", "truth", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


T = load_truth()
P = T.P  # test/integration/projects.py

VARIANTS = ("plain", "instr-pgo", "activetime-train", "activetime-pgo",
            "activetime-pgo-profi", "instr-gen", "at-train-gen")


def train_flags(build_dir):
    """What `activetime pgo-flags train` tells a user to add."""
    out = subprocess.run([os.path.join(build_dir, "bin", "activetime"), "pgo-flags", "train"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    return out.split()

# The truth programs without the synthetic tiny.c ones, and two threaded
# ones: leveldb (C++, virtual calls through Env, Comparator, Iterator) and
# zstd.
PROGRAMS = ([n for n, row in T.PROGRAMS.items() if row[0] is not None] +
            ["leveldb", "zstd-T2"])
# Programs whose training runs take another input than the timed runs (the
# profile must generalize): {name: training arguments}.
TRAINING_ARGS = {
    "leveldb": ["--db={db}", "--benchmarks=fillseq,fillrandom,readseq,readreverse",
                "--num=60000", "--threads=1"],
    "zstd-T2": ["-5", "-T2", "-q", "-c", "--no-progress", "{input}"],
}
TRAINING_INPUT = {"zstd-T2": 16 << 20}
MIN_GAIN = 0.02  # instr PGO's speedup under which the fraction is n/a
PROFDATA = (shutil.which("llvm-profdata-" + P.LLVM_VERSION) or
            "/usr/lib/llvm-%s/bin/llvm-profdata" % P.LLVM_VERSION)


def log(msg):
    print("[pgo] " + msg, file=sys.stderr, flush=True)


P.log = log  # the builds' progress to stderr too: stdout is the table


# --- variants ----------------------------------------------------------------

def training_variants(build_dir):
    """{profile kind: the build whose training run makes that profile}."""
    gen = ["-fprofile-generate"]
    instr = P.Variant("instr-gen", [P.CLANG], [P.CLANGXX], ["-O2", "-g"] + gen, ldflags=gen)
    train = P.activetime_variant(build_dir, train_flags(build_dir))
    train.name = "at-train-gen"
    at = P.activetime_variant(build_dir, ["-fdebug-info-for-profiling"])
    at.name = "activetime-default"
    return collections.OrderedDict([("instr-pgo", instr), ("activetime-train", train),
                                    ("activetime-pgo", at)])


# profile kind -> the timed variants built with that profile
USERS = {"instr-pgo": ("instr-pgo",), "activetime-train": ("activetime-train",),
         "activetime-pgo": ("activetime-pgo", "activetime-pgo-profi")}


def use_variant(name, profile):
    """clang -O2 -g with `profile`; its contents are in the build's key."""
    if name in ("instr-pgo", "activetime-train"):
        flags = ["-fprofile-instr-use=" + profile]
    else:
        flags = ["-fdebug-info-for-profiling", "-fprofile-sample-use=" + profile]
        if name.endswith("-profi"):
            flags += ["-mllvm", "-sample-profile-use-profi"]
    return P.Variant(name, [P.CLANG], [P.CLANGXX], ["-O2", "-g"] + flags, key_files=[profile])


class Program(T.Program):
    """A program of the truth harness; exe holds the timed variants and the
    training builds (instr-gen, activetime-train)."""

    def __init__(self, name):
        super().__init__(name)
        self.ms = {v: [] for v in VARIANTS}  # per round: task-clock ms
        self.errors = {}  # variant -> why it has no (complete) figures
        self.profile_dir = None

    def build_as(self, v, args):
        """Builds (or finds cached) this program as `v`; exe[v.name]."""
        kw = {"extra_main": self.extra_main} if self.extra_main else {}
        tree, outs = P.build(self.project, v, args.build_dir, args.work, args.jobs, **kw)
        self.exe[v.name] = outs[self.binary]
        if self.threaded:
            self.args = T.T.prepare_args(self.spec, self.name, args.work, self.scratch)
        if self.stdin == "zlib-corpus":
            self.stdin = P.zlib_corpus(args.work, tree)


# --- profiles ----------------------------------------------------------------

def fresh_dir(parent, name):
    d = os.path.join(parent, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def training_cmd(prog, variant, args, scratch):
    """The training run's command: the timed runs' unless TRAINING_ARGS has
    its own (then its output is not compared: another input)."""
    if prog.name not in TRAINING_ARGS:
        return prog.cmd(variant), True
    spec = dict(prog.spec, args=TRAINING_ARGS[prog.name])
    if prog.name in TRAINING_INPUT:
        spec["input"] = TRAINING_INPUT[prog.name]
    return [prog.exe[variant]] + T.T.prepare_args(spec, prog.name + "-train", args.work,
                                                   scratch), False


def train(prog, variant, args, env, scratch, out_dir, pattern):
    """One run of the training build; the profiles it wrote."""
    cmd, same_input = training_cmd(prog, variant, args, scratch)
    out = T.run_cmd(cmd, env, prog.stdin, scratch)
    if same_input:
        T.check_stdout(prog, variant, out)
    files = sorted(glob.glob(os.path.join(out_dir, pattern)))
    if not files:
        raise RuntimeError("the %s run wrote no %s into %s" % (variant, pattern, out_dir))
    return files


def instr_profile(prog, v, args, scratch):
    d = fresh_dir(prog.profile_dir, "profraw")
    env = T.clean_env(LLVM_PROFILE_FILE=os.path.join(d, "%p.profraw"))
    raws = train(prog, v.name, args, env, scratch, d, "*.profraw")
    out = os.path.join(prog.profile_dir, "instr.profdata")
    P.run([PROFDATA, "merge", "-o", out] + raws)
    return out


def activetime_run_export(prog, v, args, scratch, name, fmt, export_args=()):
    """One run of an ActiveTime training build, its raw profiles exported
    with --format=`fmt` into the profile directory's `name`."""
    d = fresh_dir(prog.profile_dir, name + "-raw")
    env = T.clean_env(ACTIVETIME_OPTIONS="output=%s/%%e.%%p.raw" % d)
    raws = train(prog, v.name, args, env, scratch, d, "*.raw")
    out = os.path.join(prog.profile_dir, name)
    if os.path.exists(out):
        os.unlink(out)  # an earlier run's must not outlive a failed export
    r = subprocess.run([activetime_tool(args), "export", "--format=" + fmt] +
                       list(export_args) + ["-o", out] + raws, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if r.returncode != 0:
        raise RuntimeError(export_failure(args, fmt, r))
    return out


def activetime_profile(prog, v, args, scratch):
    """The sample profile of an ordinary build's run (call counts)."""
    fmt = ["--sample-profile-format=" + args.sample_format] if args.sample_format else []
    return activetime_run_export(prog, v, args, scratch, "activetime.prof", "sample-profile",
                                 ["--allow-call-counts"] + fmt)


def training_profile(prog, v, args, scratch):
    """The training build's run, exported as an indexed profile."""
    return activetime_run_export(prog, v, args, scratch, "train.profdata", "pgo")


PROFILERS = {"instr-pgo": instr_profile, "activetime-train": training_profile,
             "activetime-pgo": activetime_profile}


def activetime_tool(args):
    return os.path.join(args.build_dir, "bin", "activetime")


def export_failure(args, fmt, r):
    """Why `activetime export --format=FMT` failed, in one line."""
    h = subprocess.run([activetime_tool(args), "export", "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace").stdout
    if fmt not in h:
        return ("%s export has no --format=%s (this build predates it)"
                % (activetime_tool(args), fmt))
    err = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
    return "activetime export --format=%s exited %d: %s" % (fmt, r.returncode, err[:200])


# --- building ----------------------------------------------------------------

def prepare(prog, args, scratch):
    """All builds of `prog`: plain (and its reference output), then per
    profile kind the training build, its run and profile, and the rebuilds
    with that profile. A failure takes out only the variants it concerns."""
    prog.profile_dir = os.path.join(args.work, "profiles", prog.name)
    prog.scratch = scratch
    os.makedirs(prog.profile_dir, exist_ok=True)
    try:
        prog.build_as(P.plain_variant(), args)
        T.check_stdout(prog, "plain", T.run_cmd(prog.cmd("plain"), T.clean_env(),
                                                prog.stdin, scratch))
    except Exception as e:  # noqa: BLE001 - reported as the program's row
        prog.error = "plain: " + T.describe(e)
        log("%s: %s" % (prog.name, prog.error))
        return
    for kind, v in training_variants(args.build_dir).items():
        try:
            prog.build_as(v, args)
            profile = PROFILERS[kind](prog, v, args, scratch)
        except Exception as e:  # noqa: BLE001
            fail(prog, USERS[kind], "profile: " + T.describe(e))
            continue
        for name in USERS[kind]:
            try:
                use = profile
                if kind in ("instr-pgo", "activetime-train"):
                    use = relocate_profile(profile, prog.project, v.name, name, args.work)
                prog.build_as(use_variant(name, use), args)
            except Exception as e:  # noqa: BLE001
                fail(prog, [name], "build: " + T.describe(e))


def relocate_profile(profile, project, from_variant, to_variant, work):
    """The indexed profile with the build trees' paths changed: each variant
    is built from its own copy of the source (work/PROJECT-VARIANT), and
    LLVM names a static function after its source file's path, so without
    this no static function of the training tree would match the
    optimized build's. A user builds both from one source tree. Returns the
    relocated profile's path."""
    old = os.path.join(work, "%s-%s" % (project, from_variant)) + "/"
    new = os.path.join(work, "%s-%s" % (project, to_variant)) + "/"
    text = profile + ".txt"
    P.run([PROFDATA, "merge", "--text", "-o", text, profile])
    with open(text) as f:
        body = f.read().replace(old, new)
    out = "%s.%s.profdata" % (os.path.splitext(profile)[0], to_variant)
    with open(text, "w") as f:
        f.write(body)
    P.run([PROFDATA, "merge", "-o", out, text])
    return out


def fail(prog, variants, why):
    for name in variants:
        prog.errors.setdefault(name, why)
        log("%s %s: %s" % (prog.name, name, why))


# --- the rounds --------------------------------------------------------------

def run_round(prog, rnd, args, scratch):
    ready = [v for v in VARIANTS if v in prog.exe and v not in prog.errors]
    log("%s: round %d/%d" % (prog.name, rnd + 1, args.rounds))
    for name in T.rotate(ready, rnd):
        try:
            ms, out = T.perf_stat(prog, name, T.clean_env(), scratch)
            T.check_stdout(prog, name, out)
            prog.ms[name].append(ms)
        except Exception as e:  # noqa: BLE001
            fail(prog, [name], "round %d: %s" % (rnd + 1, T.describe(e)))


def gain_fraction(speedup, instr):
    """The fraction of instr PGO's gain reached; None when instr's is noise."""
    if speedup is None or instr is None or instr - 1 < MIN_GAIN:
        return None
    return (speedup - 1) / (instr - 1)


def figures(prog):
    if prog.error:
        return {"error": prog.error}
    meds = {v: T.med(prog.ms[v]) for v in VARIANTS}
    speedup = {v: T.ratio(meds["plain"], meds[v]) for v in VARIANTS}
    out = collections.OrderedDict()
    for v in VARIANTS:
        f = {"cpu_ms": prog.ms[v], "median_ms": meds[v], "speedup": speedup[v]}
        if v.startswith("activetime"):
            f["of_instr"] = gain_fraction(speedup[v], speedup["instr-pgo"])
        if v == "at-train-gen":  # training slowdown, against instr-gen's
            f["of_instr"] = T.ratio(meds["instr-gen"], meds[v])
        if v in prog.errors:
            f["error"] = prog.errors[v]
        out[v] = f
    return {"variants": out}


# --- printing ----------------------------------------------------------------

COLS = [("program", 9), ("variant", 20), ("CPU ms", 8), ("range", 13), ("speedup", 7),
        ("of instr", 8)]


def row_cells(prog, v, f):
    if "error" in f:
        return [prog, v, "error: " + f["error"]]
    ms = f["cpu_ms"]
    rng = "%.0f-%.0f" % (min(ms), max(ms)) if ms else "n/a"
    frac = T.fmt(f["of_instr"], "%.2f") if "of_instr" in f else "-"
    return [prog, v, T.fmt(f["median_ms"], "%.1f"), rng, T.fmt(f["speedup"], "%.3f"), frac]


def print_row(cells):
    head = "%-*s %-*s" % (COLS[0][1], cells[0], COLS[1][1], cells[1])
    if len(cells) == 3:
        print(head + " " + cells[2])
    else:
        print(head + " " + " ".join("%*s" % (w, c) for (_, w), c in zip(COLS[2:], cells[2:])))


def print_table(results, args, load0):
    print_row([h for h, _ in COLS])
    for name, r in results.items():
        if "error" in r:
            print_row([name, "-", "error: " + r["error"]])
            continue
        for v, f in r["variants"].items():
            print_row(row_cells(name, v, f))
    load1 = os.getloadavg()
    print("%d rounds; CPU ms: median perf stat task-clock; speedup: plain's median over the "
          "variant's; of instr: (speedup - 1) / (instr-pgo's - 1), n/a under a %d%% instr "
          "gain (at-train-gen: instr-gen's CPU time over its own, above 1: the training "
          "run is faster than LLVM's instrumented one); load average %.2f %.2f %.2f (start) %.2f %.2f %.2f (end)"
          % (args.rounds, 100 * MIN_GAIN, *load0, *load1))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-dev"),
                    help="the ActiveTime build (default: build-dev of this tree)")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(),
                                                   "activetime-bench-pgo-%d" % os.getuid()),
                    help="builds (cached), profiles and scratch (default: %(default)s)")
    ap.add_argument("--programs", default=",".join(PROGRAMS),
                    help="comma-separated subset of: " + ",".join(PROGRAMS))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sample-profile-format", dest="sample_format",
                    choices=("text", "extbinary"),
                    help="passed to activetime export (default: its own, extbinary)")
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.work = os.path.abspath(args.work)
    names = [n for n in args.programs.split(",") if n]
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown or not names:
        ap.error("unknown program(s): " + ",".join(unknown) if unknown else "no programs")
    os.makedirs(args.work, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="scratch-", dir=args.work)
    load0 = os.getloadavg()
    results = collections.OrderedDict()
    try:
        for name in names:
            prog = Program(name)
            prepare(prog, args, scratch)
            for rnd in range(args.rounds if not prog.error else 0):
                run_round(prog, rnd, args, scratch)
            results[name] = figures(prog)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print_table(results, args, load0)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rounds": args.rounds, "build_dir": args.build_dir,
                       "sample_profile_format": args.sample_format, "programs": results},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
