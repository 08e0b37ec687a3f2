#!/usr/bin/env python3
#===- bench/mpi/hpcc.py - a real MPI program built with the wrappers ------===#
#
# Part of ActiveTime. Builds the HPC Challenge suite (Debian 12's `hpcc`
# source package) twice from one unpacked tree, through Open MPI's mpicc:
# plain (OMPI_CC=clang-19) and with the profiler (OMPI_CC=activetime-clang,
# --activetime-mpi), both -O2 -g, BLAS from libblas-dev (reference BLAS,
# scripts/install-deps.sh). It runs the plain build twice and the profiled
# one once on P oversubscribed ranks with a small hpccinf.txt (HPL N=1000,
# NB=40, a 2x2 grid for 4 ranks), each run in its own directory, and checks
# that the profiled run's output is the plain run's:
#   - the exit status and stdout are equal;
#   - hpccoutf.txt is equal line for line once the run-dependent fields are
#     masked: the fields named in MASKS below (times, rates, dates, the node
#     picked at random for the Single* tests, the DGEMM residual of matrices
#     seeded with the time). MASKS was found by diffing plain runs against
#     each other; each run of this script checks it again: every difference
#     between its two plain runs must be a masked field, or it stops;
#   - every verdict line (PASSED/FAILED, errors found, residual checks,
#     Success=) is equal, its verdict words unmasked.
# Then it prints what ActiveTime saw (`activetime report` of the ranks'
# profiles: the MPI summary, the per-rank table, the imbalance table) and the
# wall time of the profiled run against the plain runs'.
#
# The package's Debian tarball may be missing from the source cache and the
# mirror (a 404 for hpcc_1.5.0-3.debian.tar.xz): then the upstream tarball
# is unpacked, without Debian's patches, and the output says so. Either way
# the two MPI-1 routines that Open MPI 4's mpi.h no longer declares
# (MPI_Address, MPI_Type_struct, in hpl/src/comm/HPL_packL.c) are replaced by
# their MPI-2 twins (MPI_Get_address, MPI_Type_create_struct) when present.
#
# Both builds define RA_TIME_BOUND_DISABLE (HPCC's README): by default
# MPIRandomAccess times a sample of its updates and cuts their number to fit
# a 60 s bound (RandomAccess/time_bound.c), so the work done, and the lines
# "Number of updates EXECUTED" and MPIRandomAccess_ExeUpdates, depend on the
# machine's speed: a profiled run with the bound executed 1373560 of the
# 2097152 updates that both plain runs executed.
#
# usage: hpcc.py --build-dir BUILD [--ranks 4] [--keep DIR] [--jobs 2]
#                [--options ACTIVETIME_OPTIONS for the profiled run]
#
#===----------------------------------------------------------------------===#
import argparse
import difflib
import glob
import hashlib
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "integration"))
import projects  # noqa: E402

MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root"]
ARCH = "activetime"

# hpl/Make.activetime: mpicc compiles and links (so MPI's include and lib
# stay empty), the Fortran BLAS of libblas-dev, HPL's default options,
# RandomAccess without its time bound (above).
# CCNOOPT is for the files HPCC wants unoptimized (machine parameters).
MAKE_ARCH = """\
# Written by ActiveTime's bench/mpi/hpcc.py.
SHELL        = /bin/sh
CD           = cd
CP           = cp
LN_S         = ln -s
MKDIR        = mkdir -p
RM           = /bin/rm -f
TOUCH        = touch
ARCH         = $(arch)
TOPdir       = ../../..
INCdir       = $(TOPdir)/include
BINdir       = $(TOPdir)/bin/$(ARCH)
LIBdir       = $(TOPdir)/lib/$(ARCH)
HPLlib       = $(LIBdir)/libhpl.a
MPdir        =
MPinc        =
MPlib        =
LAdir        =
LAinc        =
LAlib        = -lblas
F2CDEFS      = -DAdd_ -DF77_INTEGER=int -DStringSunStyle
HPL_INCLUDES = -I$(INCdir) -I$(INCdir)/$(ARCH) $(LAinc) $(MPinc)
HPL_LIBS     = $(HPLlib) $(LAlib) $(MPlib) -lm
HPL_OPTS     = -DRA_TIME_BOUND_DISABLE
HPL_DEFS     = $(F2CDEFS) $(HPL_OPTS) $(HPL_INCLUDES)
CC           = mpicc {wrapper_flags}
CCNOOPT      = $(HPL_DEFS) -g
CCFLAGS      = $(HPL_DEFS) -O2 -g
LINKER       = mpicc {wrapper_flags}
LINKFLAGS    = $(CCFLAGS)
ARCHIVER     = ar
ARFLAGS      = r
RANLIB       = echo
"""

# hpccinf.txt: HPCC's sample input (_hpccinf.txt) with NB=40 and the grid
# P x Q for the rank count. The other tests size themselves from HPL's N.
HPCCINF = """\
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
1000         Ns
1            # of NBs
40           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
{p}            Ps
{q}            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                      		Number of additional problem sizes for PTRANS
1200 10000 30000        	values of N
0                       	number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64       	values of NB
"""

N = r"(-?[0-9.]+(?:e[-+]?[0-9]+)?)"  # a measured number
# The run-dependent fields of hpccoutf.txt, by field name: (name, a regular
# expression matching the whole line, one group per masked field). Found by
# diffing plain runs: each measures time, so anything timed, or computed
# from a time, differs from run to run:
MASKS = [
    # every section's end, and the header: "Current time (1795869671) is Sat ..."
    ("Current time", r"Current time \((\d+)\) is (.+)"),
    # RandomAccess (MPI, Star, Single; plain and LCG): its times and rates
    ("RandomAccess time used",
     r"(?:Verification: +)?(?:CPU|Real) time used += " + N + " seconds"),
    ("RandomAccess GUP/s", N + r" Billion\(10\^9\) Updates(?:/PE)? +per second \[GUP/s\]"),
    ("Min/Avg/Max GUP/s", r"(?:Minimum|Average|Maximum) GUP/s " + N),
    ("Single GUP/s", r"Single GUP/s " + N),
    # the Single* tests' node, drawn by rand() seeded with time(NULL)
    # (DGEMM/onecpu.c, STREAM/onecpu.c, FFT/onecpu.c, RandomAccess/single_cpu*.c)
    ("Node selected", r"Node selected (\d+)"),
    # PTRANS rows: TIME and GB/s (not CHECK, not RESID)
    ("PTRANS TIME, GB/s", r"(?:WALL|CPU) +(?:\d+ +){6}" + N + r" +\S+ +" + N + r" +\S+"),
    # StarDGEMM: its matrices are seeded with time(NULL) (DGEMM/tstdgemm.c), so
    # is its residual; its verdict is "Node(s) with error" and Success=
    ("DGEMM scaled residual", r"Scaled residual: " + N),
    ("Gflop/s", r"(?:(?:Minimum|Average|Maximum) |Single (?:DGEMM|FFT) )?Gflop/s:? +" + N),
    # STREAM
    ("STREAM test duration", r"Each test below will take on the order of (\d+) microseconds\."),
    ("STREAM clock ticks", r" +\(= (\d+) clock ticks\)"),
    ("STREAM setup time", r"VERBOSE: total setup time for rank \d+ = " + N + " seconds"),
    ("STREAM rate and times", r"(?:Copy|Scale|Add|Triad): +" + N + " +" + N + " +" + N + " +" + N),
    ("STREAM GB/s", r"(?:(?:Minimum|Average|Maximum)|Single STREAM) (?:Copy|Scale|Add|Triad) GB/s " + N),
    # FFT phases
    ("FFT phase time", r"(?:Generation time|Tuning|Computing|Inverse FFT): +" + N),
    # LatencyBandwidth
    ("latency/bandwidth min/avg/max",
     r"(?:Latency|Bandwidth) +min / avg / max: +" + N + " / +" + N + " / +" + N + r" (?:msecs|MByte/s)"),
    ("latency for msg", r"latency for msg: +" + N + " msecs"),
    ("ping pong estimate", r"estimation for ping pong: +" + N + " msecs"),
    ("ping pong pairs", r"max number of ping pong pairs += +(\d+)"),
    ("ping pong counts", r"max client pings = max server pongs = +(\d+)"),
    ("ring latency/bandwidth",
     r"(?:Natural Order|Avg Random Order) (?:Latency|Bandwidth): +" + N + r" (?:msec|MB/s)"),
    ("LatencyBandwidth wall clock", r"Execution time \(wall clock\) += +" + N + r" sec on \d+ processes"),
    ("LatencyBandwidth part time", r" - for [a-z_ ]+= +" + N + " sec"),
    ("latency/bandwidth results",
     r"(?:Max Ping Pong Latency|Randomly Ordered Ring Latency|Min Ping Pong Bandwidth|"
     r"Naturally Ordered Ring Bandwidth|Randomly  Ordered Ring Bandwidth): +" + N + r" (?:msecs|MB/s)"),
    ("ring latency, bandwidth",
     r"On (?:naturally|randomly ) ordered ring: latency= +" + N + r" msec, bandwidth= +" + N + " MB/s"),
    # HPL's result row: Time and Gflops (not N, NB, P, Q)
    ("HPL Time, Gflops", r"W[RC]\w+ +\d+ +\d+ +\d+ +\d+ +" + N + " +" + N),
    # the summary's key=value lines whose key names a time or a rate
    ("summary times and rates",
     r"(?:\w+_time\d*|\w+_CheckTime|\w+_GUPs|\w+_Gflops|\w+_Tflops|\w+_GBs|\w+_usec|\w+_GBytes|"
     r"(?:Star|Single)STREAM_(?:Copy|Scale|Add|Triad))=" + N),
]
MASKS = [(name, re.compile(rx)) for name, rx in MASKS]
# Verdict lines: compared with their verdict words unmasked.
VERDICT = re.compile(r"PASSED|FAILED|passed|failed|[Rr]esidual|errors? |Errors|"
                     r"Success=|Failure|Validates|with error")
VERDICT_WORDS = re.compile(r"PASSED|FAILED|passed|failed|Found \d+ errors|"
                           r"with error \d+|Success=\d+|Validates|\d+ tests")


def log(msg):
    print("[hpcc] " + msg, flush=True)


def mpi_env():
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader")


def dsc_files(dsc):
    """{file name: sha256} from the .dsc's Checksums-Sha256."""
    out, inside = {}, False
    with open(dsc) as f:
        for line in f:
            if line.startswith("Checksums-Sha256:"):
                inside = True
            elif inside and line.startswith(" "):
                sha, _, name = line.split()
                out[name] = sha
            elif inside:
                break
    return out


def sha256(path):
    h = hashlib.sha256()
    projects.file_hash(h, path)
    return h.hexdigest()


def get_source(work):
    """Unpacks Debian's hpcc into work/src; returns (tree, how)."""
    try:
        dsc = projects.fetch("hpcc")
    except RuntimeError as e:
        # apt-get source may leave the .dsc and the orig tarball when the
        # Debian tarball fails to download
        dscs = sorted(glob.glob(os.path.join(projects.SRC_CACHE, "hpcc_*.dsc")))
        if not dscs:
            sys.exit("hpcc: no source: %s" % e)
        dsc = dscs[-1]
    d = os.path.dirname(dsc)
    files = dsc_files(dsc)
    missing = [f for f in files if not os.path.exists(os.path.join(d, f))]
    dest = os.path.join(work, "src")
    shutil.rmtree(dest, ignore_errors=True)
    if not missing:
        projects.unpack(dsc, dest)
        return dest, "%s, Debian's patches applied" % os.path.basename(dsc)
    orig = [f for f in files if ".orig.tar." in f]
    if not orig or orig[0] in missing:
        sys.exit("hpcc: %s lists %s, missing from %s" % (os.path.basename(dsc),
                                                         ", ".join(missing), d))
    path = os.path.join(d, orig[0])
    if sha256(path) != files[orig[0]]:
        sys.exit("hpcc: %s does not match the .dsc's checksum" % path)
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    subprocess.run(["tar", "-xf", path, "-C", tmp], check=True)
    top = os.listdir(tmp)
    if len(top) != 1:
        sys.exit("hpcc: %s holds %d top directories" % (path, len(top)))
    os.rename(os.path.join(tmp, top[0]), dest)
    os.rmdir(tmp)
    return dest, ("%s from the upstream tarball %s alone: %s missing from %s "
                  "(apt-get source could not fetch it), so without Debian's patches" %
                  (os.path.basename(dsc), orig[0], ", ".join(missing), d))


def patch_mpi1(tree):
    """MPI_Address and MPI_Type_struct, removed from MPI-3 and from Open MPI
    4's mpi.h, by their MPI-2 twins; returns what it changed."""
    path = os.path.join(tree, "hpl", "src", "comm", "HPL_packL.c")
    with open(path) as f:
        text = f.read()
    new = re.sub(r"\bMPI_Address\(", "MPI_Get_address(", text)
    new = re.sub(r"\bMPI_Type_struct\(", "MPI_Type_create_struct(", new)
    if new == text:
        return "none needed"
    n = len(re.findall(r"\bMPI_(?:Address|Type_struct)\(", text))
    with open(path, "w") as f:
        f.write(new)
    return ("%d calls in hpl/src/comm/HPL_packL.c: MPI_Address -> MPI_Get_address, "
            "MPI_Type_struct -> MPI_Type_create_struct" % n)


def build(src, dest, cc, wrapper_flags, jobs, epoch):
    """Copies the tree to dest and builds hpcc there; returns its path."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest, symlinks=True)
    with open(os.path.join(dest, "hpl", "Make." + ARCH), "w") as f:
        f.write(MAKE_ARCH.format(wrapper_flags=wrapper_flags))
    # SOURCE_DATE_EPOCH: both builds print the same "Compiled on" date
    env = dict(mpi_env(), OMPI_CC=cc, SOURCE_DATE_EPOCH=str(epoch))
    logf = os.path.join(dest, "build.log")
    t0 = time.monotonic()
    with open(logf, "w") as out:
        r = subprocess.run(["make", "arch=" + ARCH, "-j%d" % jobs], cwd=dest, env=env,
                           stdout=out, stderr=subprocess.STDOUT)
    exe = os.path.join(dest, "hpcc")
    if r.returncode or not os.path.exists(exe):
        with open(logf) as f:
            lines = f.read().splitlines()
        errs = [l for l in lines if re.search(r"error|undefined reference", l)]
        sys.exit("hpcc: the build with OMPI_CC=%s failed (%s):\n%s" %
                 (cc, logf, "\n".join((errs or lines)[-20:])))
    with open(logf) as f:
        warnings = sum(1 for l in f if "warning:" in l)
    log("built %s (OMPI_CC=%s mpicc%s -O2 -g -DRA_TIME_BOUND_DISABLE) in %.0f s, "
        "%d compiler warnings" %
        (os.path.relpath(exe, os.path.dirname(os.path.dirname(dest))), os.path.basename(cc),
         " " + wrapper_flags if wrapper_flags else "", time.monotonic() - t0, warnings))
    return exe


def grid(ranks):
    p = int(ranks ** 0.5)
    while ranks % p:
        p -= 1
    return p, ranks // p


def run_hpcc(exe, rundir, ranks, env, extra=()):
    """Runs the job in rundir; (exit status, stdout, stderr, hpccoutf lines,
    wall s, (user, system) CPU s of the ranks and mpirun)."""
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    p, q = grid(ranks)
    with open(os.path.join(rundir, "hpccinf.txt"), "w") as f:
        f.write(HPCCINF.format(p=p, q=q))
    cmd = MPIRUN + ["-np", str(ranks)] + list(extra) + [exe]
    t0, u0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, cwd=rundir, env=env, capture_output=True, text=True)
    wall, u1 = time.monotonic() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (u1.ru_utime - u0.ru_utime, u1.ru_stime - u0.ru_stime)
    for name, text in (("stdout.txt", r.stdout), ("stderr.txt", r.stderr)):
        with open(os.path.join(rundir, name), "w") as f:
            f.write(text)
    outf = os.path.join(rundir, "hpccoutf.txt")
    lines = open(outf).read().splitlines() if os.path.exists(outf) else []
    log("%s: exit %d, %.1f s (CPU: user %.1f s, system %.1f s), %d lines of hpccoutf.txt" %
        (os.path.basename(rundir), r.returncode, wall, cpu[0], cpu[1], len(lines)))
    return r.returncode, r.stdout, r.stderr, lines, wall, cpu


def mask(line):
    """(the line with its run-dependent fields, and the blanks before them,
    replaced by ' #', [(rule, value)])."""
    for name, rx in MASKS:
        m = rx.fullmatch(line)
        if m:
            out, last, fields = "", 0, []
            for g in range(1, (m.lastindex or 0) + 1):
                # a field printed with a width: its padding is part of it
                start = m.start(g)
                while start > last and line[start - 1] == " ":
                    start -= 1
                out += line[last:start] + " #"
                last = m.end(g)
                fields.append((name, m.group(g)))
            return out + line[last:], fields
    return line, []


def compare(base, other):
    """Line by line under the mask: (masked field count, [(line no, base,
    other)] that differ, {rule: fields whose values differed})."""
    if len(base) != len(other):
        # lines added or lost: the masked lines' differences, by difflib
        ma, mb = [mask(l)[0] for l in base], [mask(l)[0] for l in other]
        bad = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ma, mb,
                                                          autojunk=False).get_opcodes():
            if op != "equal":
                bad.append((i1 + 1, "\n".join(base[i1:i2]), "\n".join(other[j1:j2])))
        return sum(len(mask(l)[1]) for l in base), bad, {}
    nfields, bad, differed = 0, [], {}
    for i, (a, b) in enumerate(zip(base, other), 1):
        ma, fa = mask(a)
        mb, fb = mask(b)
        nfields += len(fa)
        if ma != mb:
            bad.append((i, a, b))
            continue
        for (name, va), (_, vb) in zip(fa, fb):
            if va != vb:
                differed[name] = differed.get(name, 0) + 1
    return nfields, bad, differed


def verdicts(lines):
    out = []
    for i, l in enumerate(lines, 1):
        if VERDICT.search(l):
            out.append((i, mask(l)[0], tuple(VERDICT_WORDS.findall(l))))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--keep")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--options", default="",
                    help="more ACTIVETIME_OPTIONS for the profiled run (a,b=c,...)")
    a = ap.parse_args()
    bin_dir = os.path.join(os.path.abspath(a.build_dir), "bin")
    tool = os.path.join(bin_dir, "activetime")
    wrapper = os.path.join(bin_dir, "activetime-clang")
    work = os.path.abspath(a.keep or tempfile.mkdtemp(prefix="at-bench-hpcc-"))
    os.makedirs(work, exist_ok=True)
    env = mpi_env()

    tree, how = get_source(work)
    log("source: " + how)
    log("MPI-1 routines replaced: " + patch_mpi1(tree))
    epoch = int(time.time())
    plain = build(tree, os.path.join(work, "plain"), projects.CLANG, "", a.jobs, epoch)
    prof = build(tree, os.path.join(work, "activetime"), wrapper, "--activetime-mpi",
                 a.jobs, epoch)

    runs = os.path.join(work, "runs")
    p1 = run_hpcc(plain, os.path.join(runs, "plain1"), a.ranks, env)
    p2 = run_hpcc(plain, os.path.join(runs, "plain2"), a.ranks, env)
    profdir = os.path.join(runs, "activetime")
    # The ranks reduce their profiles at MPI_Finalize (the default) and
    # each writes its own too, which the per-rank checks below read.
    opts = "output=%s/p.%%r.raw,mpi_rank_files=1" % profdir + (
        "," + a.options if a.options else "")
    log("profiled run: ACTIVETIME_OPTIONS=" + opts)
    pr = run_hpcc(prof, profdir, a.ranks, dict(env, ACTIVETIME_OPTIONS=opts),
                  ["-x", "ACTIVETIME_OPTIONS"])
    for name, r in (("plain1", p1), ("plain2", p2)):
        if r[0] or not r[3]:
            sys.exit("hpcc: the plain run %s failed (exit %d):\n%s" % (name, r[0], r[2][-2000:]))

    # 1. the mask against two plain runs
    nf, bad, differed = compare(p1[3], p2[3])
    if bad:
        for i, x, y in bad:
            print("  line %d: %r\n       vs %r" % (i, x, y))
        sys.exit("hpcc: %d lines differ between two plain runs outside MASKS: "
                 "the mask needs a rule" % len(bad))
    print("\nThe mask: %d rules; %d fields of %d plain lines masked; between the two plain "
          "runs %d of them differed, under %d rules:" %
          (len(MASKS), nf, len(p1[3]), sum(differed.values()), len(differed)))
    print("  " + "; ".join("%s %d" % (k, v) for k, v in differed.items()))
    unused = [n for n, _ in MASKS if n not in differed]
    if unused:
        print("  rules without a difference this time (they did in earlier runs): " +
              "; ".join(unused))

    # 2. the profiled run against the first plain run
    ok = True
    print("\nOutput of the profiled run against the plain run:")
    print("  exit status: %d and %d: %s" % (p1[0], pr[0], "same" if p1[0] == pr[0] else "DIFFERENT"))
    ok &= p1[0] == pr[0]
    same_out = p1[1] == pr[1]
    print("  stdout: %d and %d bytes: %s" % (len(p1[1]), len(pr[1]),
                                             "same" if same_out else "DIFFERENT"))
    ok &= same_out
    if p1[2] != pr[2]:
        print("  stderr (not compared): %d and %d lines" %
              (len(p1[2].splitlines()), len(pr[2].splitlines())))
    nf, bad, differed = compare(p1[3], pr[3])
    print("  hpccoutf.txt: %d lines compared, %d fields masked (%d of them differed), "
          "%d lines differ" % (len(p1[3]), nf, sum(differed.values()), len(bad)))
    for i, x, y in bad:
        print("    line %d: plain    %r\n             profiled %r" % (i, x, y))
    ok &= not bad
    va, vb = verdicts(p1[3]), verdicts(pr[3])
    vsame = [(i, m, w) for i, m, w in va] == [(i, m, w) for i, m, w in vb]
    words = sum(len(w) for _, _, w in va)
    print("  verdicts: %d lines (%d verdict words: PASSED, errors found, Success=...) in the "
          "plain run, %d in the profiled: %s" %
          (len(va), words, len(vb), "same" if vsame else "DIFFERENT"))
    if not vsame:
        for x, y in zip(va, vb):
            if x != y:
                print("    plain %r\n    profiled %r" % (x, y))
    ok &= vsame
    print("  verdict: %s" % ("output unchanged" if ok else "OUTPUT CHANGED"))

    # 3. wall time, and HPCC's own times
    plain_wall = statistics.mean([p1[4], p2[4]])
    print("\nWall time of the job: plain %.1f s and %.1f s, profiled %.1f s: %.2fx" %
          (p1[4], p2[4], pr[4], pr[4] / plain_wall))
    print("  CPU time (user + system): plain %.1f + %.1f s and %.1f + %.1f s, "
          "profiled %.1f + %.1f s" % (p1[5] + p2[5] + pr[5]))
    keys = ("HPL_time", "PTRANS_time", "MPIRandomAccess_time", "MPIRandomAccess_LCG_time")
    summ = [{m.group(1): float(m.group(2)) for m in
             (re.fullmatch(r"(\w+)=" + N, l) for l in r[3]) if m} for r in (p1, p2, pr)]
    for k in keys:
        if all(k in s for s in summ):
            base = statistics.mean([summ[0][k], summ[1][k]])
            print("  %-26s plain %8.3f s %8.3f s, profiled %8.3f s: %.2fx" %
                  (k, summ[0][k], summ[1][k], summ[2][k], summ[2][k] / base if base else 0))

    # 4. what ActiveTime saw
    files = [os.path.join(profdir, "p.%d.raw" % r) for r in range(a.ranks)]
    have = [f for f in files if os.path.exists(f)]
    print("\nProfiles: %d of %d ranks (%s)" % (len(have), a.ranks,
                                              ", ".join("%d KiB" % (os.path.getsize(f) >> 10)
                                                        for f in have)))
    r = subprocess.run([tool, "report"] + have, capture_output=True, text=True)
    if r.returncode:
        print("activetime report failed:\n" + r.stderr[-2000:])
        ok = False
    else:
        lines = r.stdout.splitlines()
        start = next((i for i, l in enumerate(lines) if l.startswith("MPI:")), None)
        if start is None:
            print("activetime report: no MPI summary")
            ok = False
        else:
            print("activetime report %s/p.[0-9]*.raw, from its MPI summary:" % profdir)
            print("\n".join(lines[start:start + 45]))
    if a.keep:
        log("kept %s" % work)
    else:
        shutil.rmtree(work)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
