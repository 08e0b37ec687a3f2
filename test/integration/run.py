#!/usr/bin/env python3
#===- test/integration/run.py - real programs with the plugin -------------===#
#
# Part of ActiveTime. The `integration` ctest stage: builds third-party
# projects from Debian 12 source packages (lua5.4, zlib, tinyxml2) once plain
# (clang-19 -O2 -g) and once with bin/activetime-clang(++), runs each
# project's own tests or a standard workload with both builds, checks the
# results are identical, and that `activetime report` (text and --json) reads
# the profiles and names the functions that must be hot. Builds are cached in
# <build>/integration keyed by source + toolchain + flags; source packages in
# $ACTIVETIME_SRC_CACHE (default /var/cache/activetime/src).
#
#===----------------------------------------------------------------------===#

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import projects as P  # noqa: E402

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
        """The text and JSON reports read every profile in prof_dir; each
        function in `hot` is among the `top` by self active time (or, if the
        name starts with '>', present with calls > 0). Rankings are checked
        on fenced profiles: with unfenced probes (the default) the self-active
        time of a caller of many short functions rests on a probe cost that
        varies severalfold between runs on a VM, and the report marks it "~"
        instead (docs/user-guide.md)."""
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
        by_self = sorted(funcs, key=lambda f: -f["self_active_ns"])
        top_names = [f["name"] for f in by_self[:top]]
        for h in hot:
            if h.startswith(">"):
                h = h[1:]
                hit = [f for f in funcs if f["name"] == h or f["name"].startswith(h + "(")
                       or f["linkage_name"] == h]
                check(bool(hit) and hit[0]["calls"] > 0, "%s: %s called (%s calls)" %
                      (label, h, hit[0]["calls"] if hit else "no"))
            else:
                check(any(n == h or n.startswith(h + "(") for n in top_names),
                      "%s: %s among the %d hottest by self time" % (label, h, top))
        check(doc["counters"]["unmatched_exits"] == 0 and doc["counters"]["dropped_events"] == 0,
              "%s: no unmatched exits, no dropped events (counters %s)" % (label, doc["counters"]))
        print("    hottest by self active time: " + ", ".join(top_names[:6]))
        return doc


def test_lua(args, tool):
    print("lua5.4: interpreter, call-heavy workload (test/integration/Inputs/workload.lua)")
    script = os.path.join(HERE, "Inputs", "workload.lua")
    _, plain = P.build("lua", P.plain_variant(), args.build_dir, args.work, args.jobs)
    _, inst = P.build("lua", P.activetime_variant(args.build_dir), args.build_dir, args.work,
                      args.jobs)
    prof = tempfile.mkdtemp(prefix="lua-", dir=args.work)
    a = run_prog([plain["lua"], script])
    b = run_prog([inst["lua"], script], prof_dir=prof)
    check(a.returncode == 0 and b.returncode == 0, "lua: both builds exit 0")
    check(a.stdout == b.stdout and b"done" in a.stdout,
          "lua: workload output identical (%d lines)" % a.stdout.count(b"\n"))
    # Deep Lua recursion through C (sort comparator, gsub callback) and
    # longjmp error unwinding: frames must be repaired, not left open.
    doc = tool.check_profile("lua", prof, [">luaV_execute", ">luaD_throw", ">auxsort",
                                           ">luaD_precall"])
    if doc:
        check(doc["counters"]["unwound_frames"] > 0,
              "lua: frames abandoned by error longjmps counted as unwound (%d)" %
              doc["counters"]["unwound_frames"])
        # The interpreter loop pays a probe exit for each of its millions of
        # calls inside its own code: its unfenced self-active time is marked.
        vm = [f for f in doc["functions"] if f["name"] == "luaV_execute"]
        check(bool(vm) and vm[0]["self_active_approximate"],
              "lua: luaV_execute's unfenced self-active time is marked approximate (%s)" %
              ("%.1f ms once %.1f ms of overhead is removed" % (
                  vm[0]["self_active_ns"] / 1e6,
                  (vm[0]["self_elapsed_ns"] - vm[0]["self_active_ns"]) / 1e6)
               if vm else "not in the profile"))
    # Ranking with fenced probes: luaV_execute has 17% of a plain run's
    # samples under `perf record`, nearly three times the next function.
    fprof = tempfile.mkdtemp(prefix="lua-fenced-", dir=args.work)
    f = run_prog([inst["lua"], script], prof_dir=fprof, opts="probe_fence=1")
    check(f.returncode == 0 and f.stdout == a.stdout, "lua fenced: workload output identical")
    tool.check_profile("lua fenced", fprof, ["luaV_execute"], top=5)


def test_zlib(args, tool):
    print("zlib: compression library, `make teststatic` + compressing a corpus")
    work = args.work
    variants = [P.plain_variant(), P.activetime_variant(args.build_dir),
                P.activetime_variant(args.build_dir, ["-mllvm", "-activetime-strides"])]
    built = [P.build("zlib", v, args.build_dir, work, args.jobs) for v in variants]
    # Deterministic ~3.4 MB of mixed text and binary: zlib's own sources and
    # documentation, repeated.
    corpus = os.path.join(work, "zlib-corpus")
    if not os.path.exists(corpus):
        data = b""
        for pat in ("*.[ch]", "doc/*", "test/*.c", "contrib/*/*"):
            for f in sorted(glob.glob(os.path.join(built[0][0], pat))):
                if os.path.isfile(f) and not f.endswith(".o"):
                    with open(f, "rb") as fh:
                        data += fh.read()
        if not data:
            raise RuntimeError("no zlib sources found for the corpus")
        with open(corpus + ".tmp", "wb") as out:
            while out.tell() < 3 << 20:
                out.write(data)
        os.rename(corpus + ".tmp", corpus)
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
    # Ranking with fenced probes, on the -9 compression of the corpus.
    fprof = tempfile.mkdtemp(prefix="zlib-fenced-", dir=work)
    f9 = run_prog([built[1][1]["minigzip"], "-9"], prof_dir=fprof, stdin=data,
                  opts="probe_fence=1")
    check(f9.stdout == plain[2], "zlib activetime fenced: -9 output identical to plain")
    tool.check_profile("zlib activetime fenced minigzip -9", fprof,
                       ["longest_match", "deflate_slow"], top=5)
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
