#!/usr/bin/env python3
#===- test/integration/run.py - real programs with the plugin -------------===#
#
# Part of ActiveTime. The `integration` ctest stage: builds third-party
# projects from Debian 12 source packages (lua5.4, zlib, tinyxml2) once plain
# (clang-19 -O2 -g) and once with bin/activetime-clang(++), runs each
# project's own tests or a standard workload with both builds, checks the
# results are identical, and that `activetime report` (text and --json) reads
# the profiles, says how each function's time was obtained (timed or
# counted, the provenance block) and ranks the functions that must be hot
# among the hottest in a run with the default options. zlib's call counts
# are checked exactly against a build with counting
# -finstrument-functions-after-inlining hooks (bench/truth/count_hooks.c).
# Builds are cached in <build>/integration keyed by source + toolchain +
# flags; source packages in $ACTIVETIME_SRC_CACHE (default
# /var/cache/activetime/src).
#
#===----------------------------------------------------------------------===#

import argparse
import glob
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import projects as P  # noqa: E402
from elfinfo import load_base  # noqa: E402

failures = []


def check(cond, what):
    print(("  ok    " if cond else "  FAIL  ") + what, flush=True)
    if not cond:
        failures.append(what)
    return cond


def run_prog(cmd, cwd=None, prof_dir=None, stdin=None, opts=""):
    env = dict(os.environ)
    env.pop("ACTIVETIME_OPTIONS", None)
    if prof_dir:
        os.makedirs(prof_dir, exist_ok=True)
        env["ACTIVETIME_OPTIONS"] = "output=%s/%s" % (prof_dir, (":" + opts) if opts else "")
    r = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return r


class Tool:
    def __init__(self, build_dir):
        self.exe = os.path.join(build_dir, "bin", "activetime")

    def report(self, raws, *args):
        return subprocess.run([self.exe, "report"] + list(args) + list(raws),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def check_profile(self, label, prof_dir, hot, top=15, pattern="*.raw"):
        """The text and JSON reports read every profile in prof_dir and say
        how each function's self time was obtained; each function in `hot`
        is among the `top` by self active time (or, if the name starts with
        '>', present with calls > 0). Returns the JSON report."""
        raws = sorted(glob.glob(os.path.join(prof_dir, pattern)))
        if not check(len(raws) > 0, "%s: profile written" % label):
            return None
        r = self.report(raws)
        check(r.returncode == 0 and "calls" in r.stdout.lower(),
              "%s: `activetime report` reads %d profile(s)%s" %
              (label, len(raws), "" if r.returncode == 0 else ": " + r.stderr.strip()))
        r = self.report(raws, "--json")
        try:
            doc = json.loads(r.stdout)
        except ValueError:
            check(False, "%s: `activetime report --json` is JSON (%s)" % (label, r.stderr.strip()))
            return None
        check(r.returncode == 0 and doc.get("schema") == "activetime-report",
              "%s: `activetime report --json` reads the profile(s)" % label)
        funcs = doc.get("functions", [])
        check_provenance(label, doc)
        for h in hot:
            if h.startswith(">"):
                h = h[1:]
                hit = [f for f in funcs if f["name"] == h or f["name"].startswith(h + "(")
                       or f["linkage_name"] == h]
                check(bool(hit) and hit[0]["calls"] > 0, "%s: %s called (%s calls)" %
                      (label, h, hit[0]["calls"] if hit else "no"))
        check_rank(label, doc, [h for h in hot if not h.startswith(">")], top)
        check(doc["counters"]["unmatched_exits"] == 0 and doc["counters"]["dropped_events"] == 0,
              "%s: no unmatched exits, no dropped events (counters %s)" % (label, doc["counters"]))
        by_self = sorted(funcs, key=lambda f: -f["self_active_ns"])
        print("    hottest by self active time: " + ", ".join(
            "%s (%s)" % (f["name"], f["how"]) for f in by_self[:6]))
        return doc


def check_rank(label, doc, hot, top):
    """Each function in `hot` is among the `top` by self active time."""
    by_self = sorted(doc.get("functions", []), key=lambda f: -f["self_active_ns"])
    for h in hot:
        rank = [i for i, f in enumerate(by_self)
                if f["name"] == h or f["name"].startswith(h + "(")]
        check(bool(rank) and rank[0] < top, "%s: %s among the %d hottest by self time (#%s)" %
              (label, h, top, rank[0] + 1 if rank else "-"))


PROVENANCE_KEYS = ("timed_calls", "counted_calls", "timed_self_active_ns",
                   "counted_self_active_ns", "counted_uncertainty_ns", "counting_bound_ns",
                   "probe_residual_per_call_ns", "timed_uncertainty_ns", "code_samples",
                   "runtime_code_samples", "lost_code_samples", "unsplit_self_active_ns")
PER_CALL = ("elapsed_ns", "self_elapsed_ns", "overhead_ns", "off_cpu_ns", "min_active_ns",
            "max_active_ns", "active_ns")


def check_provenance(label, doc):
    """Every function row is timed or counted, consistently with its counted
    calls and its per-call figures, and the provenance block accounts for
    every call and all the self time."""
    funcs = doc.get("functions", [])
    hows = collections.Counter(f.get("how") for f in funcs)
    check(bool(funcs) and set(hows) <= {"timed", "counted"},
          "%s: every function row is timed or counted (%s)" % (label, dict(hows)))
    bad = [f["name"] for f in funcs
           if (f.get("how") == "counted") != (f.get("counted_calls", 0) > 0)
           or any((f.get(k) is None) != (f.get("counted_calls", 0) > 0) for k in PER_CALL)]
    check(not bad, "%s: counted rows (and only they) have counted calls and no per-call "
          "figures%s" % (label, ": " + ", ".join(bad[:5]) if bad else ""))
    prov = doc.get("provenance")
    if not check(isinstance(prov, dict) and all(k in prov for k in PROVENANCE_KEYS)
                 and bool(doc.get("how_note")),
                 "%s: provenance block and how note present (%s)" %
                 (label, "missing " + ", ".join(k for k in PROVENANCE_KEYS
                                                if k not in (prov or {}))
                  if not isinstance(prov, dict) or not all(k in prov for k in PROVENANCE_KEYS)
                  else "%d timed, %d counted calls, %d code samples" %
                  (prov["timed_calls"], prov["counted_calls"], prov["code_samples"]))):
        return
    calls = sum(f["calls"] for f in funcs)
    counted = sum(f["counted_calls"] for f in funcs)
    check(calls == prov["timed_calls"] + prov["counted_calls"] and counted == prov["counted_calls"],
          "%s: provenance counts every call (%d = %d timed + %d counted)" %
          (label, calls, prov["timed_calls"], prov["counted_calls"]))
    total = doc["total_self_active_ns"]
    parts = prov["timed_self_active_ns"] + prov["counted_self_active_ns"]
    check(abs(total - parts) <= 1e-6 * max(abs(total), 1.0),
          "%s: self-active time = timed + counted parts (%.3f ms = %.3f + %.3f ms)" %
          (label, total / 1e6, prov["timed_self_active_ns"] / 1e6,
           prov["counted_self_active_ns"] / 1e6))


def code_samples_on(doc):
    procs = doc.get("processes", []) if doc else []
    return bool(procs) and all(p.get("code_samples", {}).get("state") == "on" for p in procs)


def check_ranking(tool, label, run, prof_dir, hot, top):
    """`hot` among the `top` by self-active time in a default-options run
    (`run(prof_dir, opts)` runs the workload). Counted functions' self time
    comes from code samples; where perf_event_open is refused there are none
    and the ranking is checked on a run that times every call with fenced
    probes instead (timing_ratio=0:probe_fence=1)."""
    ranked = [h for h in hot if not h.startswith(">")]
    doc = tool.check_profile(label, prof_dir, [h if h.startswith(">") else ">" + h for h in hot])
    if doc is None:
        return doc
    if code_samples_on(doc):
        check_rank(label, doc, ranked, top)
        return doc
    # Without code samples the counted functions' time stays in their timed
    # callers (the report says how much was not split).
    print("    code samples unavailable here: ranking on a timing_ratio=0:probe_fence=1 run")
    fprof = prof_dir + "-timed"
    run(fprof, "timing_ratio=0:probe_fence=1")
    tool.check_profile(label + " (every call timed, fenced)", fprof, hot, top=top)
    return doc


# --- exact call counts --------------------------------------------------------

def count_variant(work):
    """clang -O2 -g -finstrument-functions-after-inlining with the counting
    hooks of bench/truth: the true number of calls of every function that
    survived inlining."""
    obj = os.path.join(work, "count_hooks.o")
    P.run([P.CLANG, "-O2", "-c", os.path.join(ROOT, "bench", "truth", "count_hooks.c"),
           "-o", obj])
    return P.Variant("count", [P.CLANG], [P.CLANGXX],
                     ["-O2", "-g", "-finstrument-functions-after-inlining"], link_extra=[obj])


def true_counts(exe, counts_file):
    """{linkage name: calls} from count_hooks.c's output for `exe`."""
    out = subprocess.run(["nm", "--defined-only", exe], stdout=subprocess.PIPE,
                         text=True).stdout
    base = load_base(exe)
    names = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            names.setdefault(int(f[0], 16) - base, f[2])
    res = collections.Counter()
    with open(counts_file) as fh:
        for line in fh:
            if line.startswith("#"):
                res["#overflow"] += 1
                continue
            off, n = line.split()
            res[names.get(int(off, 16), "?0x" + off)] += int(n)
    return res


def at_counts(doc):
    res = collections.Counter()
    for f in doc.get("functions", []) if doc else []:
        res[f["linkage_name"]] += f["calls"]
    return res


def test_lua(args, tool):
    print("lua5.4: interpreter, call-heavy workload (test/integration/Inputs/workload.lua)")
    script = os.path.join(HERE, "Inputs", "workload.lua")
    _, plain = P.build("lua", P.plain_variant(), args.build_dir, args.work, args.jobs)
    _, inst = P.build("lua", P.activetime_variant(args.build_dir), args.build_dir, args.work,
                      args.jobs)
    prof = tempfile.mkdtemp(prefix="lua-", dir=args.work)
    a = run_prog([plain["lua"], script])

    def run(prof_dir, opts=""):
        r = run_prog([inst["lua"], script], prof_dir=prof_dir, opts=opts)
        check(r.returncode == 0 and r.stdout == a.stdout,
              "lua%s: exits 0, workload output identical to plain" %
              (" " + opts if opts else ""))
        return r

    check(a.returncode == 0 and b"done" in a.stdout,
          "lua plain: workload runs (%d lines)" % a.stdout.count(b"\n"))
    run(prof)
    # Deep Lua recursion through C (sort comparator, gsub callback) and
    # longjmp error unwinding: frames must be repaired, not left open. The
    # interpreter loop is the hottest function of a plain run under `perf
    # record` (17% of the samples, nearly three times the next one); with the
    # default options its calls are counted and its self time split off its
    # timed callers by code samples.
    doc = check_ranking(tool, "lua", run, prof,
                        ["luaV_execute", ">luaD_throw", ">auxsort", ">luaD_precall"], top=5)
    if doc:
        check(doc["counters"]["unwound_frames"] > 0,
              "lua: frames abandoned by error longjmps counted as unwound (%d)" %
              doc["counters"]["unwound_frames"])
        vm = [f for f in doc["functions"] if f["name"] == "luaV_execute"]
        check(bool(vm) and vm[0]["self_active_ns"] > 0,
              "lua: luaV_execute's self-active time (%s)" %
              ("%.1f ms +- %.1f ms, %s, %d of %d calls counted, %d code samples" % (
                  vm[0]["self_active_ns"] / 1e6, vm[0]["self_active_uncertainty_ns"] / 1e6,
                  vm[0]["how"], vm[0]["counted_calls"], vm[0]["calls"], vm[0]["code_samples"])
               if vm else "not in the profile"))
    # timing_ratio=0 times every call (the exact call tree of every call):
    # no row is counted.
    tprof = tempfile.mkdtemp(prefix="lua-timed-", dir=args.work)
    run(tprof, "timing_ratio=0")
    tdoc = tool.check_profile("lua timing_ratio=0", tprof, [">luaV_execute"])
    if tdoc:
        check(tdoc["provenance"]["counted_calls"] == 0 and
              all(f["how"] == "timed" for f in tdoc["functions"]),
              "lua timing_ratio=0: every call timed (%d timed, %d counted calls)" %
              (tdoc["provenance"]["timed_calls"], tdoc["provenance"]["counted_calls"]))


def test_zlib(args, tool):
    print("zlib: compression library, `make teststatic` + compressing a corpus")
    work = args.work
    variants = [P.plain_variant(), P.activetime_variant(args.build_dir),
                P.activetime_variant(args.build_dir, ["-mllvm", "-activetime-strides"])]
    built = [P.build("zlib", v, args.build_dir, work, args.jobs) for v in variants]
    corpus = P.zlib_corpus(work, built[0][0])
    data = open(corpus, "rb").read()
    results = []
    for v, (tree, exe) in zip(variants, built):
        prof = tempfile.mkdtemp(prefix="zlib-%s-" % v.name, dir=work)
        pd = None if v.name == "plain" else prof
        # zlib's own `make teststatic`.
        t1 = run_prog([exe["minigzip"]], prof_dir=pd, stdin=b"hello world\n")
        t2 = run_prog([exe["minigzip"], "-d"], prof_dir=pd, stdin=t1.stdout)
        t3 = run_prog([exe["example"], os.path.join(prof, "tmpst")], cwd=prof, prof_dir=pd)
        check(t1.returncode == 0 and t2.stdout == b"hello world\n" and t3.returncode == 0,
              "zlib %s: teststatic (minigzip round trip, example) passes" % v.name)
        c9 = run_prog([exe["minigzip"], "-9"], prof_dir=pd, stdin=data)
        c1 = run_prog([exe["minigzip"], "-1"], prof_dir=pd, stdin=data)
        d9 = run_prog([exe["minigzip"], "-d"], prof_dir=pd, stdin=c9.stdout)
        check(d9.stdout == data, "zlib %s: -9 round trip of the %d-byte corpus" % (v.name, len(data)))
        results.append((v, t3.stdout, c9.stdout, c1.stdout, prof))
    plain = results[0]
    for v, ex_out, c9, c1, prof in results[1:]:
        check(ex_out == plain[1], "zlib %s: example prints the same as plain" % v.name)
        check(c9 == plain[2] and c1 == plain[3],
              "zlib %s: compressed bytes identical to plain (-9: %d, -1: %d bytes)" %
              (v.name, len(c9), len(c1)))
        # One binary per report: minigzip's runs (compress -1/-9, inflate) merged.
        tool.check_profile("zlib %s minigzip" % v.name, prof,
                           [">longest_match", ">deflate_slow", ">deflate_fast", ">inflate"],
                           pattern="activetime.minigzip.*.raw")
        tool.check_profile("zlib %s example" % v.name, prof, [">test_deflate", ">test_gzio"],
                           pattern="activetime.example.*.raw")
    # Ranking with the default options, on the -9 compression of the corpus
    # (longest_match and deflate_slow lead a plain run under `perf record`).
    exe9 = built[1][1]["minigzip"]

    def run9(prof_dir, opts=""):
        r = run_prog([exe9, "-9"], prof_dir=prof_dir, stdin=data, opts=opts)
        check(r.returncode == 0 and r.stdout == plain[2],
              "zlib activetime%s: -9 output identical to plain" % (" " + opts if opts else ""))
        return r

    rprof = tempfile.mkdtemp(prefix="zlib-rank-", dir=work)
    run9(rprof)
    rdoc = check_ranking(tool, "zlib activetime minigzip -9", run9, rprof,
                         ["longest_match", "deflate_slow"], top=5)
    # Fenced probes (probe_fence=1) time differently, not count differently:
    # the same calls of every function, and the same two lead.
    fprof = tempfile.mkdtemp(prefix="zlib-fenced-", dir=work)
    run9(fprof, "probe_fence=1")
    fdoc = tool.check_profile("zlib activetime fenced minigzip -9", fprof,
                              ["longest_match", "deflate_slow"], top=5)
    if fdoc:
        check(all(p["overhead"]["fenced"] for p in fdoc["processes"]),
              "zlib activetime fenced: the profile says its probes were fenced")
    # Exact call counts: against the counting hooks' build on the same input.
    _, cexe = P.build("zlib", count_variant(work), args.build_dir, work, args.jobs)
    cprof = tempfile.mkdtemp(prefix="zlib-count-", dir=work)
    cfile = os.path.join(cprof, "counts.txt")
    env = dict(os.environ, COUNT_HOOKS_OUT=cfile)
    env.pop("ACTIVETIME_OPTIONS", None)
    c9 = subprocess.run([cexe["minigzip"], "-9"], input=data, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, env=env)
    if check(c9.returncode == 0 and c9.stdout == plain[2] and os.path.exists(cfile),
             "zlib count hooks: -9 output identical to plain, counts written"):
        truth = true_counts(cexe["minigzip"], cfile)
        check("#overflow" not in truth, "zlib count hooks: no table overflow")
        for label, d in (("default", rdoc), ("fenced", fdoc)):
            got = at_counts(d)
            common = sorted(n for n in truth if n in got)
            wrong = ["%s %d != %d" % (n, got[n], truth[n]) for n in common if got[n] != truth[n]]
            must = ["longest_match", "deflate_slow", "fill_window", "compress_block",
                    "build_tree", "send_tree", "crc32_z"]
            missing = [n for n in must if n not in common]
            check(bool(d) and not wrong and not missing and len(common) >= 10,
                  "zlib %s -9: exact call counts of the %d functions in both builds "
                  "(longest_match %s)%s" %
                  (label, len(common), got.get("longest_match"),
                   "; wrong: " + ", ".join(wrong[:5]) if wrong else "") +
                  ("; missing: " + ", ".join(missing) if missing else ""))
    # Stride profile of the strides build: report --strides reads it.
    sprof = results[2][4]
    raws = sorted(glob.glob(os.path.join(sprof, "activetime.minigzip.*.raw")))
    r = tool.report(raws, "--strides")
    check(r.returncode == 0 and "longest_match" in r.stdout,
          "zlib strides: `report --strides` reads the profiles and lists longest_match's sites")


def test_tinyxml2(args, tool):
    print("tinyxml2 (C++): its own test suite, xmltest")
    variants = [P.plain_variant(), P.activetime_variant(args.build_dir)]
    outs = []
    for v in variants:
        tree, exe = P.build("tinyxml2", v, args.build_dir, args.work, args.jobs)
        prof = tempfile.mkdtemp(prefix="tinyxml2-", dir=args.work)
        outdir = os.path.join(tree, "resources", "out")
        shutil.rmtree(outdir, ignore_errors=True)
        os.makedirs(outdir)
        r = run_prog([exe["xmltest"]], cwd=tree,
                     prof_dir=None if v.name == "plain" else prof)
        last = [l for l in r.stdout.decode(errors="replace").splitlines() if l.startswith("Pass ")]
        check(r.returncode == 0 and last and last[-1].endswith("Fail 0"),
              "tinyxml2 %s: xmltest passes (%s)" % (v.name, last[-1] if last else "no summary"))
        files = {}
        for f in sorted(os.listdir(outdir)):
            files[f] = open(os.path.join(outdir, f), "rb").read()
        outs.append((v, last[-1] if last else None, files, prof))
    check(outs[0][1] == outs[1][1] and outs[0][2] == outs[1][2],
          "tinyxml2: same pass count and identical resources/out/ files (%d) as plain" %
          len(outs[0][2]))
    tool.check_profile("tinyxml2", outs[1][3],
                       [">tinyxml2::XMLDocument::Parse", ">tinyxml2::XMLPrinter::PushText",
                        ">main"], top=30)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work", help="build cache and scratch (default <build>/integration)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="comma-separated subset of lua,zlib,tinyxml2")
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.work = os.path.abspath(args.work or os.path.join(args.build_dir, "integration"))
    os.makedirs(args.work, exist_ok=True)
    for d in glob.glob(os.path.join(args.work, "*-*-*")) + glob.glob(os.path.join(args.work, "lua-*")) \
            + glob.glob(os.path.join(args.work, "tinyxml2-*")):
        if os.path.isdir(d) and not os.path.exists(os.path.join(d, ".activetime-build-key")):
            shutil.rmtree(d)  # profiles of earlier runs
    tool = Tool(args.build_dir)
    tests = {"lua": test_lua, "zlib": test_zlib, "tinyxml2": test_tinyxml2}
    only = args.only.split(",") if args.only else list(tests)
    for name in only:
        try:
            tests[name](args, tool)
        except Exception as e:  # a build or fetch failure fails the stage
            check(False, "%s: %s" % (name, e))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
