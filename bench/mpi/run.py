#!/usr/bin/env python3
#===- bench/mpi/run.py - MPI figures against the program's own clocks -----===#
#
# Part of ActiveTime. Builds bench/mpi/ranks.c (rank r computes (r+1)*W,
# then waits in MPI_Barrier; it measures itself) plain and with the
# profiler, runs each on P oversubscribed ranks for a few rounds, and
# compares, per rank:
#   - the rank's computing time (the report's MPI time per rank: active
#     time outside MPI calls) against the plain build's main-thread CPU
#     clock over main less its CPU time inside the MPI calls (median of the
#     plain rounds): the rank's own work as without the profiler (what a
#     rank spends inside MPI depends on how long it waited, so it differs
#     from run to run);
#   - compute()'s active time against its CPU-clock brackets in the plain
#     build (the same run's brackets, which hold the profiler's own cost, as
#     a second column);
#   - MPI_Barrier's elapsed time (the wait) against its MPI_Wtime brackets;
# and the imbalance view's cost for compute (max - mean over the ranks)
# against the same figure from the ranks' own CPU-clock brackets.
# Errors are (profiler - truth) / truth; the target is 5%.
#
# usage: run.py --build-dir BUILD [--ranks 4] [--units 20] [--iters 3]
#               [--rounds 3] [--keep DIR]
#
#===----------------------------------------------------------------------===#
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

LINE = re.compile(r"rank (\d+) of (\d+): outside_mpi_cpu_ns (\d+) compute_cpu_ns (\d+)"
                  r" compute_wall_ns (\d+) barrier_wall_ns (\d+)")
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root"]


def mpi_env():
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader")


def run_ranks(cmd, env):
    """Runs the job; {rank: (outside_mpi_cpu, compute_cpu, compute_wall,
    barrier_wall)}."""
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    out = {}
    for m in LINE.finditer(r.stdout):
        out[int(m.group(1))] = tuple(int(m.group(i)) for i in range(3, 7))
    return out


def report_json(tool, files):
    r = subprocess.run([tool, "report", "--json"] + files, capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)


def rank_figures(doc):
    """(the rank's computing time, compute's active, MPI_Barrier's elapsed)."""
    names = {f["id"]: f["name"] for f in doc["functions"]}
    by_name = {names[f["function"]]: f for t in doc["threads"]
               for f in t["functions"]}
    return (doc["mpi"]["per_rank"][0]["computing_ns"],
            by_name["compute"]["active_ns"],
            by_name["MPI_Barrier"]["elapsed_ns"])


def err(x, truth):
    return 100.0 * (x - truth) / truth if truth else float("nan")


def imbalance(values):
    return max(values) - statistics.mean(values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--units", type=int, default=20)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--keep")
    a = ap.parse_args()
    bin_dir = os.path.join(os.path.abspath(a.build_dir), "bin")
    tool = os.path.join(bin_dir, "activetime")
    work = a.keep or tempfile.mkdtemp(prefix="at-bench-mpi-")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ranks.c")
    env = mpi_env()
    plain, prof = os.path.join(work, "plain"), os.path.join(work, "prof")
    subprocess.run(["mpicc", "-O2", "-g", src, "-o", plain], check=True,
                   env=dict(env, OMPI_CC="clang-19"))
    subprocess.run(["mpicc", "-O2", "-g", "--activetime-mpi", src, "-o", prof],
                   check=True,
                   env=dict(env, OMPI_CC=os.path.join(bin_dir, "activetime-clang")))
    args = [str(a.units), str(a.iters)]
    job = MPIRUN + ["-np", str(a.ranks)]
    plain_cpu = {r: [] for r in range(a.ranks)}
    plain_compute = {r: [] for r in range(a.ranks)}
    rows = []  # per round: per rank figures
    for rnd in range(a.rounds):
        for r, v in run_ranks(job + [plain] + args, env).items():
            plain_cpu[r].append(v[0])
            plain_compute[r].append(v[1])
        out = os.path.join(work, "round%d" % rnd)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        # Each rank's own file (from its snapshot at MPI_Finalize) beside
        # the job's: the figures are per rank.
        opts = "output=%s/p.%%r.raw,mpi_rank_files=1" % out
        own = run_ranks(job + ["-x", "ACTIVETIME_OPTIONS=" + opts, prof] + args,
                        dict(env, ACTIVETIME_OPTIONS=opts))
        files = [os.path.join(out, "p.%d.raw" % r) for r in range(a.ranks)]
        per_rank = {r: rank_figures(report_json(tool, [f]))
                    for r, f in enumerate(files)}
        whole = report_json(tool, files)
        spread = [x for x in whole["mpi"]["imbalance"] if x["name"] == "compute"][0]
        rows.append((own, per_rank, spread["imbalance_ns"]))
    print("MPI accuracy: %d ranks (oversubscribed on %d cores), rank r computes "
          "(r+1)*%d units x %d rounds; %d runs of each build" %
          (a.ranks, os.cpu_count(), a.units, a.iters, a.rounds))
    print("%-5s %12s %12s %7s | %12s %12s %7s %12s | %12s %12s %7s" %
          ("rank", "computing", "plain CPU", "err%", "compute", "plain CPU",
           "err%", "same run", "barrier", "Wtime", "err%"))
    worst = {"rank": 0.0, "compute": 0.0, "barrier": 0.0, "imbalance": 0.0}
    for r in range(a.ranks):
        med = lambda xs: statistics.median(xs)
        act = med([row[1][r][0] for row in rows])
        cpu = med(plain_cpu[r])
        comp = med([row[1][r][1] for row in rows])
        comp_t = med(plain_compute[r])
        comp_same = med([row[0][r][1] for row in rows])
        bar = med([row[1][r][2] for row in rows])
        bar_t = med([row[0][r][3] for row in rows])
        e = (err(act, cpu), err(comp, comp_t), err(bar, bar_t))
        for k, v in zip(("rank", "compute", "barrier"), e):
            worst[k] = max(worst[k], abs(v))
        print("%-5d %9.1f ms %9.1f ms %+6.1f%% | %9.1f ms %9.1f ms %+6.1f%% "
              "%9.1f ms | %9.1f ms %9.1f ms %+6.1f%%" %
              (r, act / 1e6, cpu / 1e6, e[0], comp / 1e6, comp_t / 1e6, e[1],
               comp_same / 1e6, bar / 1e6, bar_t / 1e6, e[2]))
    imb = statistics.median(row[2] for row in rows)
    imb_t = imbalance([statistics.median(plain_compute[r])
                       for r in range(a.ranks)])
    worst["imbalance"] = abs(err(imb, imb_t))
    print("compute's imbalance (max - mean): report %.1f ms, the plain ranks' CPU clocks "
          "%.1f ms: %+.1f%%" % (imb / 1e6, imb_t / 1e6, err(imb, imb_t)))
    print("largest error: rank computing %.1f%%, compute %.1f%%, barrier wait "
          "%.1f%%, imbalance %.1f%% (target 5%%)" %
          (worst["rank"], worst["compute"], worst["barrier"], worst["imbalance"]))
    if not a.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
