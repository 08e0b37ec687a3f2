#!/usr/bin/env python3
#===- bench/corpus/run.py - every program that links plain links with us -===#
#
# Part of ActiveTime. Builds a corpus of real code bases from their Debian 12
# source packages twice, plain (clang-19 -O2 -g) and with the ActiveTime
# wrappers (bin/activetime-clang(++), -O2 -g), runs each one's own test
# suite or benchmark in both builds and compares what they print (timings
# masked). The claim it checks: every C/C++ program that builds and links
# without the plugin builds, links and behaves the same with it.
#
# The corpus: the truth harness's programs (bench/truth: lua, zlib,
# tinyxml2, sqlite3, yaml-cpp, leveldb, zstd; their workloads, zstd's as a
# compress/decompress round trip) and C++ code bases chosen for the
# constructs that have broken instrumenting compilers before:
#   fmtlib 9.1     templates, a header-only build (fmt-header-only tests),
#                  -fPIC shared library (libfmt.so, tests linked to it),
#                  exceptions; ctest
#   snappy 1.1.9   -fPIC shared library, -flto=thin with lld in both
#                  builds (ThinLTO), gtest/gmock tests; snappy_unittest
#   re2 2022-06-01 -fPIC shared library with a version script, function-
#                  local statics, static tables; its shared-test suite
#   cppcheck 2.10  a large C++ tool: picojson's template static member
#                  with a dynamic initializer (last_error_t<bool>::s),
#                  inline functions' guarded statics, exceptions; run on
#                  its own samples/ and on a --project compile database
#                  (which goes through picojson)
# Per code base it prints: constructs, build ok (compiling), link ok, tests
# pass (in both builds), output identical, the text size ratio
# (instrumented/plain, `size` of the main binary or library) and the build
# time ratio (the two builds' wall times; builds are cached, a cached
# build reports the time it took when it ran). A failure is reported, not
# worked around: the first error line and the failing command are printed.
#
# Builds are cached as test/integration/projects.py does (key: source,
# toolchain, flags), in --work (default <build>/bench-corpus).
#
#===----------------------------------------------------------------------===#

import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "integration"))
sys.path.insert(0, os.path.join(ROOT, "bench", "truth"))
import projects as P  # noqa: E402
import threaded as T  # noqa: E402

OVERHEAD = os.path.join(ROOT, "bench", "overhead")
TRUTH = os.path.join(ROOT, "bench", "truth")
LTO = ["-flto=thin", "-fuse-ld=lld"]
LLVM_AR = "llvm-ar-" + P.LLVM_VERSION
LLVM_RANLIB = "llvm-ranlib-" + P.LLVM_VERSION


def log(msg):
    print("[corpus] " + msg, file=sys.stderr, flush=True)


P.log = log


# --- builds of the new code bases -------------------------------------------
# Each gets the unpacked tree, the variant and the job count and returns
# {name: path}; "main" names the binary or library whose text is compared.

def cmake(src, v, jobs, defs, targets=None):
    """P.cmake_build with llvm-ar/ranlib (archives of ThinLTO bitcode need
    an index lld can read)."""
    return P.cmake_build(src, v, jobs, defs + ["CMAKE_AR=" + shutil.which(LLVM_AR),
                                               "CMAKE_RANLIB=" + shutil.which(LLVM_RANLIB)],
                         targets or ["all"])


def build_fmtlib(src, v, jobs):
    # As Debian builds it (shared, -fPIC), with the tests (system googletest
    # compiled from /usr/src/googletest by the same compiler).
    b = cmake(src, v, jobs, ["BUILD_SHARED_LIBS=ON", "CMAKE_POSITION_INDEPENDENT_CODE=ON",
                             "FMT_TEST=ON", "FMT_DOC=OFF", "FMT_PEDANTIC=OFF"])
    lib = sorted(glob.glob(os.path.join(b, "libfmt.so.*.*")))
    return {"main": lib[-1] if lib else os.path.join(b, "libfmt.so"), "build": b}


def build_snappy(src, v, jobs):
    # Shared library and its unit test, ThinLTO (the variant's flags carry
    # -flto=thin -fuse-ld=lld), gtest/gmock from the system.
    b = cmake(src, v, jobs, ["BUILD_SHARED_LIBS=ON", "SNAPPY_BUILD_TESTS=ON",
                             "SNAPPY_BUILD_BENCHMARKS=OFF", "SNAPPY_ENABLE_RTTI=ON",
                             "SNAPPY_USE_BUNDLED_GTEST=OFF", "SNAPPY_FUZZING_BUILD=OFF"],
              ["snappy", "snappy_unittest"])
    lib = sorted(glob.glob(os.path.join(b, "libsnappy.so.*.*")))
    return {"main": lib[-1] if lib else os.path.join(b, "libsnappy.so"),
            "unittest": os.path.join(b, "snappy_unittest"), "build": b}


RE2_TESTS = ["charclass_test", "compile_test", "filtered_re2_test", "mimics_pcre_test",
             "parse_test", "possible_match_test", "re2_test", "re2_arg_test", "regexp_test",
             "required_prefix_test", "search_test", "set_test", "simplify_test",
             "string_generator_test"]


def build_re2(src, v, jobs):
    # The shared library (-fPIC objects, version script) and the tests
    # linked against it (re2's shared-test; private symbols from the
    # static library, as upstream does).
    # REBUILD_TABLES: the Debian source (+dfsg) drops the generated Unicode
    # tables; they are made from the unicode-data package, as Debian does.
    args = ["CXX=" + " ".join(v.cxx), "CXXFLAGS=" + " ".join(v.cflags),
            "LDFLAGS=" + " ".join(v.ldflags), "AR=" + LLVM_AR, "REBUILD_TABLES=1"]
    tests = ["obj/so/test/" + t for t in RE2_TESTS]
    P.run(["make", "-j%d" % jobs, "obj/so/libre2.so"] + tests + args, cwd=src,
          stdout=subprocess.DEVNULL)
    return {"main": os.path.realpath(os.path.join(src, "obj", "so", "libre2.so")),
            "tests": os.path.join(src, "obj", "so", "test"), "so_dir": os.path.join(src, "obj", "so")}


def build_cppcheck(src, v, jobs):
    # The command-line tool (lib + cli), bundled tinyxml2 and picojson, no
    # GUI, no match compiler (it needs Python to generate sources).
    b = cmake(src, v, jobs, ["BUILD_GUI=OFF", "BUILD_TESTS=OFF", "USE_MATCHCOMPILER=Off",
                             "HAVE_RULES=OFF", "ENABLE_OSS_FUZZ=OFF", "USE_BUNDLED_TINYXML2=ON",
                             "CMAKE_DISABLE_PRECOMPILE_HEADERS=ON"],
              ["cppcheck", "copy_cfg", "copy_platforms"])
    return {"main": os.path.join(b, "bin", "cppcheck")}


# --- tests -------------------------------------------------------------------
# Each takes the build's outputs and a scratch directory and returns
# (passed, text to compare between the builds).

def mask_times(text):
    """Timings and addresses out of a test log."""
    text = re.sub(r"[0-9]+(\.[0-9]+)? ?(sec|s|ms|us|µs|ns|micros/op|MB/s|milli-seconds)\b",
                  "T", text)
    text = re.sub(r"\((\d+ ms total|\d+ ms)\)", "(T)", text)
    return re.sub(r"0x[0-9a-f]{6,}", "0xADDR", text)


def run_text(cmd, cwd=None, env=None, stdin=None, timeout=1800, stderr=True):
    """(status, stdout and, unless stderr=False, stderr) of a test run."""
    with open(stdin or os.devnull, "rb") as fin:
        r = subprocess.run(cmd, cwd=cwd, env=env, stdin=fin, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if stderr else subprocess.DEVNULL,
                           timeout=timeout)
    return r.returncode, r.stdout.decode(errors="replace")


def profile_env(scratch):
    """Instrumented runs write their profiles into scratch, not the tree."""
    env = dict(os.environ)
    env.pop("ACTIVETIME_OPTIONS", None)
    env["ACTIVETIME_OPTIONS"] = "output=%s/" % scratch
    return env


def test_fmtlib(outs, scratch):
    rc, out = run_text(["ctest", "--output-on-failure", "-j1"], cwd=outs["build"],
                       env=profile_env(scratch))
    lines = [l for l in out.splitlines() if re.search(r"Test +#|tests passed|tests failed", l)]
    return rc == 0, mask_times("\n".join(lines))


def test_snappy(outs, scratch):
    src = os.path.dirname(outs["build"])
    rc, out = run_text([outs["unittest"]], cwd=src, env=profile_env(scratch))
    lines = [l for l in out.splitlines() if l.startswith("[")]
    return rc == 0, mask_times("\n".join(lines))


def test_re2(outs, scratch):
    env = profile_env(scratch)
    env["LD_LIBRARY_PATH"] = outs["so_dir"]
    ok, lines = True, []
    for t in (os.path.join(outs["tests"], n) for n in RE2_TESTS):
        rc, out = run_text([t], env=env)
        ok &= rc == 0
        # re2's tests print nothing but failures; the verdict is the status
        lines.append("%s %s" % (os.path.basename(t), "PASS" if rc == 0 else "FAIL"))
        lines += [mask_times(l) for l in out.splitlines() if "FAIL" in l or "Check" in l]
    return ok, "\n".join(lines)


def test_cppcheck(outs, scratch):
    src = os.path.dirname(os.path.dirname(os.path.dirname(outs["main"])))
    exe = outs["main"]
    env = profile_env(scratch)
    tmpl = "--template={file}:{line}:{severity}:{id}:{message}"
    rc1, out1 = run_text([exe, "-q", "--enable=all", "--inconclusive", "-j1", tmpl,
                          "--suppress=missingIncludeSystem", "samples"], cwd=src, env=env)
    # a compile database: cppcheck reads it with picojson
    db = os.path.join(scratch, "compile_commands.json")
    files = sorted(glob.glob(os.path.join(src, "samples", "*", "bad.c")))[:6]
    with open(db, "w") as f:
        json.dump([{"directory": os.path.dirname(p), "file": p,
                    "command": "cc -c %s" % os.path.basename(p)} for p in files], f)
    rc2, out2 = run_text([exe, "-q", "--project=" + db, tmpl, "--enable=warning"],
                         cwd=src, env=env)
    out = "\n".join(sorted(out1.splitlines())) + "\n--project\n" + \
        "\n".join(sorted(out2.splitlines()))
    # the two builds' trees differ in name: paths are compared from the tree
    return rc1 == 0 and rc2 == 0, out.replace(scratch, "SCRATCH").replace(src, "SRC")


def test_cmd(binary, args, stdin=None, mask=None, check=None, stderr=True):
    """A test that runs `binary` of the outputs with args; passes when it
    exits 0 (and check(output) holds)."""
    def fn(outs, scratch):
        a = [x.replace("{scratch}", scratch) for x in args]
        rc, out = run_text([outs[binary]] + a, env=profile_env(scratch),
                           stdin=stdin() if callable(stdin) else stdin, cwd=scratch,
                           stderr=stderr)
        out = mask(out) if mask else out
        return rc == 0 and (check is None or check(out)), out
    return fn


def test_zlib(outs, scratch):
    # zlib's own `example` test, then a minigzip round trip
    rc, out = run_text([outs["example"]], cwd=scratch, env=profile_env(scratch))
    data = os.path.join(scratch, "zin")
    with open(data, "wb") as f:
        f.write(open(outs["minigzip"], "rb").read())
    rc2 = subprocess.run("%s -9 < %s | %s -d | cmp - %s" % (outs["minigzip"], data,
                                                              outs["minigzip"], data),
                         shell=True, env=profile_env(scratch)).returncode
    return rc == 0 and rc2 == 0, mask_times(out) + "\nround trip %d" % rc2


def test_zstd(outs, scratch):
    # compress with -T2 (threads), decompress, compare with the input
    inp = T.make_input(scratch_root(scratch), 8 << 20)
    z = outs["zstd"]
    env = profile_env(scratch)
    c = os.path.join(scratch, "in.zst")
    r1 = subprocess.run([z, "-q", "-f", "-T2", "-6", inp, "-o", c], env=env).returncode
    r2 = subprocess.run("%s -q -d -c %s | cmp - %s" % (z, c, inp), shell=True, env=env).returncode
    size = os.path.getsize(c) if os.path.exists(c) else -1
    return r1 == 0 and r2 == 0, "compressed %d bytes, round trip %d" % (size, r2)


def scratch_root(scratch):
    return os.path.dirname(scratch.rstrip("/"))


# --- the corpus --------------------------------------------------------------

class Entry(collections.namedtuple("Entry", "name package constructs build test flags main")):
    """A code base: its source package, the constructs it exercises, how to
    build it (a function, or the name of a projects.py project with the
    truth harness's builder) and test it, extra flags of both builds, and
    the output whose text size is compared."""

    @property
    def project(self):
        return self.build if isinstance(self.build, str) else "corpus-" + self.name

    @property
    def kw(self):
        return {"extra_main": self.extra} if getattr(self, "extra", None) else {}


def truth_entry(name, constructs, test, main, extra_main=None):
    e = Entry(name, P.PROJECTS[name][0], constructs, name, test, [], main)
    e.extra = extra_main
    return e


def corpus():
    leveldb_args = ["--db={scratch}/db", "--benchmarks=fillrandom,readrandom,readseq",
                    "--num=50000", "--threads=2"]
    return [
        Entry("fmtlib", "fmtlib", "templates, header-only, -fPIC shared lib, exceptions",
              build_fmtlib, test_fmtlib, [], "main"),
        Entry("snappy", "snappy", "-flto=thin + lld, -fPIC shared lib, gtest/gmock",
              build_snappy, test_snappy, LTO, "main"),
        Entry("re2", "re2",
              "-fPIC shared lib + version script, function-local statics, std::call_once",
              build_re2, test_re2, [], "main"),
        Entry("cppcheck", "cppcheck",
              "template static member with dynamic init (picojson), exceptions, large C++",
              build_cppcheck, test_cppcheck, [], "main"),
        truth_entry("lua", "C, truth program",
                    test_cmd("lua", [os.path.join(OVERHEAD, "calls.lua"), "1"]), "lua"),
        truth_entry("zlib", "C, truth program", test_zlib, "minigzip"),
        truth_entry("tinyxml2", "C++, -fPIC static lib, truth program", test_tinyxml2,
                    "xmltest", os.path.join(OVERHEAD, "xmlbench.cpp")),
        truth_entry("sqlite3", "C, truth program",
                    test_cmd("sqlite3", [":memory:"],
                             stdin=os.path.join(TRUTH, "sqlite-workload.sql")), "sqlite3"),
        truth_entry("yaml-cpp", "C++ templates, exceptions, truth program",
                    test_cmd("yamlbench", ["100", "2"], mask=mask_times), "yamlbench",
                    os.path.join(TRUTH, "yamlbench.cpp")),
        truth_entry("leveldb", "C++, threads (background compaction), truth program",
                    test_cmd("db_bench", leveldb_args, mask=leveldb_mask, stderr=False),
                    "db_bench"),
        truth_entry("zstd", "C, threads (worker pool, async I/O), truth program",
                    test_zstd, "zstd"),
    ]


def leveldb_mask(text):
    # stdout only: stderr has the date and progress lines that interleave
    # differently with two threads
    return T.leveldb_mask(text.encode()).decode()


def test_tinyxml2(outs, scratch):
    # xmltest reads its resources relative to its directory
    src = os.path.dirname(outs["xmltest"])
    rc, out = run_text([outs["xmltest"]], cwd=src, env=profile_env(scratch))
    return rc == 0, mask_times(out)


# --- running -----------------------------------------------------------------

def variants(build_dir, flags):
    plain = P.plain_variant()
    at = P.activetime_variant(build_dir)
    for v in (plain, at):
        # -fuse-ld only at link time (compiling, it is an unused argument,
        # an error under -Werror); -flto at both
        v.cflags += [f for f in flags if not f.startswith("-fuse-ld")]
        v.ldflags += flags
        if flags:
            v.name += "-" + "".join(f.strip("-").split("=")[0][:4] for f in flags)
    return {"plain": plain, "activetime": at}


def cached_build(entry, v, args):
    """(outputs, seconds the build took, error). The truth programs come
    from the truth harness's cache (--truth-work), built there if missing;
    the others are registered with projects.py under "corpus-NAME"."""
    if entry.project in P.PROJECTS and not entry.project.startswith("corpus-"):
        project, work, kw = entry.project, args.truth_work, entry.kw
    else:
        project, work, kw = "corpus-" + entry.name, args.work, {}
        P.PROJECTS.setdefault(project, (entry.package, lambda s, v, j: entry.build(s, v, j)))
    try:
        tree, outs = P.build(project, v, args.build_dir, work, args.jobs, **kw)
    except Exception as e:  # noqa: BLE001 - the row says what failed
        return None, None, str(e)
    return outs, P.build_seconds(tree), None


def classify(err):
    """'link' when the failing step was the linker, else 'build'."""
    link = ("undefined reference", "linker command failed", "ld.lld: error", "/ld: ",
            "relocation", "discarded section", "multiple definition")
    return "link" if any(s in err for s in link) else "build"


def first_error(err):
    """The compiler's or linker's first error line, else the last line."""
    lines = err.splitlines()
    for pat in (r"error:", r"undefined reference|multiple definition", r"FAILED:|Error \d"):
        hit = [l for l in lines if re.search(pat, l)]
        if hit:
            return hit[0][:300]
    return (lines[-1] if lines else "")[:300]


def text_size(path):
    r = subprocess.run(["size", "-A", path], stdout=subprocess.PIPE, text=True)
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == ".text":
            return int(f[1])
    return None


def run_entry(entry, args, scratch):
    vs = variants(args.build_dir, entry.flags)
    row = {"program": entry.name, "constructs": entry.constructs, "flags": entry.flags}
    res = {}
    for name, v in vs.items():
        log("%s (%s)" % (entry.name, name))
        outs, secs, err = cached_build(entry, v, args)
        res[name] = {"outs": outs, "secs": secs, "err": err}
        if err:
            row["%s_error" % name] = {"kind": classify(err), "first": first_error(err),
                                       "tail": err[-2000:]}
    row["build_ok"] = {n: not (r["err"] and classify(r["err"]) == "build") for n, r in res.items()}
    row["link_ok"] = {n: r["err"] is None for n, r in res.items()}
    if all(r["err"] is None for r in res.values()):
        run_tests(entry, res, row, scratch)
        p, a = (text_size(res[n]["outs"][entry.main]) for n in ("plain", "activetime"))
        row["text_plain"], row["text_activetime"] = p, a
        row["text_ratio"] = a / p if p and a else None
    row["build_s"] = {n: r["secs"] for n, r in res.items()}
    bp, ba = res["plain"]["secs"], res["activetime"]["secs"]
    row["build_ratio"] = ba / bp if bp and ba else None
    return row


def run_tests(entry, res, row, scratch):
    outputs = {}
    row["tests_pass"] = {}
    for name in ("plain", "activetime"):
        d = tempfile.mkdtemp(prefix="%s-%s-" % (entry.name, name), dir=scratch)
        try:
            ok, out = entry.test(res[name]["outs"], d)
        except Exception as e:  # noqa: BLE001
            ok, out = False, "test raised: %s" % e
        row["tests_pass"][name] = ok
        outputs[name] = out.replace(d, "SCRATCH")
        row["%s_profiles" % name] = len(glob.glob(os.path.join(d, "*.raw")))
    row["identical"] = outputs["plain"] == outputs["activetime"]
    if not row["identical"]:
        row["output_diff"] = first_difference(outputs["plain"], outputs["activetime"])
    row["output_lines"] = len(outputs["plain"].splitlines())


def first_difference(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return "line %d: plain %r / activetime %r" % (i + 1, x[:160], y[:160])
    return "plain %d lines, activetime %d lines" % (len(al), len(bl))


# --- printing ----------------------------------------------------------------

def yn(d):
    if not isinstance(d, dict):
        return "-"
    return "yes" if all(d.values()) else "NO (%s)" % ",".join(k for k, v in d.items() if not v)


def print_table(rows):
    hdr = ("program", "build", "link", "tests", "same out", "text x", "build x", "constructs")
    w = (10, 6, 6, 6, 8, 7, 7, 0)
    print(" ".join("%-*s" % (n, h) if n else h for h, n in zip(hdr, w)))
    for r in rows:
        cells = (r["program"], yn(r["build_ok"]), yn(r["link_ok"]), yn(r.get("tests_pass")),
                 "-" if "identical" not in r else ("yes" if r["identical"] else "NO"),
                 T.fmt_num(r.get("text_ratio"), "%.2f"), T.fmt_num(r.get("build_ratio"), "%.2f"),
                 r["constructs"] + (" [%s]" % " ".join(r["flags"]) if r["flags"] else ""))
        print(" ".join("%-*s" % (n, c) if n else c for c, n in zip(cells, w)))
    for r in rows:
        for v in ("plain", "activetime"):
            e = r.get("%s_error" % v)
            if e:
                print("\n%s, %s build: %s failed: %s" % (r["program"], v, e["kind"], e["first"]))
        if r.get("output_diff"):
            print("\n%s: outputs differ at %s" % (r["program"], r["output_diff"]))


def corpus_parser(doc):
    """The options every corpus script takes (it adds its own)."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work", help="build cache (default <build>/bench-corpus)")
    ap.add_argument("--truth-work", help="the truth harness's build cache, shared for its "
                    "programs (default <build>/bench-truth)")
    ap.add_argument("--only", default="", help="comma-separated subset of: " +
                    ",".join(e.name for e in corpus()))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every row to this file")
    return ap


def corpus_args(ap):
    """Parses ap's options, makes the caches and returns (args, the programs
    --only names, refused in one line if it names one the corpus lacks)."""
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    args.work = os.path.abspath(args.work or os.path.join(args.build_dir, "bench-corpus"))
    args.truth_work = os.path.abspath(args.truth_work or
                                      os.path.join(args.build_dir, "bench-truth"))
    only = [n for n in args.only.split(",") if n]
    bad = [n for n in only if n not in [e.name for e in corpus()]]
    if bad:
        ap.error("unknown: " + ",".join(bad))
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(args.truth_work, exist_ok=True)
    return args, only


def main():
    args, only = corpus_args(corpus_parser(__doc__))
    scratch = tempfile.mkdtemp(prefix="scratch-", dir=args.work)
    rows = []
    try:
        for e in corpus():
            if not only or e.name in only:
                rows.append(run_entry(e, args, scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
