#!/usr/bin/env python3
#===- bench/mpi-reduce/run.py - the MPI job's profiles reduced at Finalize ===#
#
# Part of ActiveTime. Builds a small MPI program with the MPI part (mpicc
# with OMPI_CC=bin/activetime-clang: a few functions, an Allreduce and a
# Barrier per rank) and runs it on P = 2, 4, ..., 64 ranks, oversubscribed
# (mpirun --oversubscribe: on a 2-core machine most ranks wait for a core),
# --runs times per P and setting, interleaved. With mpi_reduce=1 (the
# default) rank 0's verbosity line gives the reduction's rounds and its own
# time (snapshot, tree exchange and the job file's write, on rank 0); the
# job's wall time (mpirun start to end) is measured with mpi_reduce=1 and
# with mpi_reduce=0 (every rank writes its own file at exit). Prints per P
# the rounds, the job file's bytes, the median reduction time, the
# longest time a rank spent in MPI_Finalize (each rank measures its call)
# with mpi_reduce=1 and 0, and the wall times side by side (median, and
# the runs' range). Targets: rounds = ceil(log2 P), and the
# reduction at most 0.5 s at 64 ranks.
#
# usage: run.py --build-dir BUILD [--runs 3] [--ranks 2,4,8,16,32,64]
#
#===----------------------------------------------------------------------===#
import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

PROG = r'''
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#define NOINLINE __attribute__((noinline))
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
volatile double sink;
NOINLINE static void work(int n) {
  double x = 0;
  for (long i = 0; i < n * 100000L; ++i) x += (double)(i & 7) * 0.5;
  sink = x;
}
NOINLINE static void step(int rank) {
  double v = rank, t = 0;
  work(1 + rank % 4);
  MPI_Allreduce(&v, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 10; ++i) step(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now_ms();
  MPI_Finalize();
  printf("finalize_ms %.3f\n", now_ms() - t0);
  return 0;
}
'''

LINE = re.compile(r"MPI profile reduction: (\d+) ranks, (\d+) rounds, (\d+) "
                  r"bytes, ([0-9.]+) ms")


def mpi_env():
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader")
    env.pop("ACTIVETIME_OPTIONS", None)
    return env


def run_job(exe, ranks, opts, work):
    for f in os.listdir(work):
        if f.startswith("p."):
            os.unlink(os.path.join(work, f))
    cmd = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-np",
           str(ranks), "-x", "ACTIVETIME_OPTIONS=" + opts, exe]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=mpi_env(), cwd=work, capture_output=True,
                       text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (" ".join(cmd), r.stderr))
    fin = [float(x) for x in re.findall(r"finalize_ms ([0-9.]+)", r.stdout)]
    if len(fin) != ranks:
        raise SystemExit("%d finalize lines of %d ranks" % (len(fin), ranks))
    return wall * 1e3, max(fin), r.stderr


def spread(t):
    return "%.0f (%.0f-%.0f) ms" % (statistics.median(t), min(t), max(t))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ranks", default="2,4,8,16,32,64")
    a = ap.parse_args()
    if not shutil.which("mpicc") or not shutil.which("mpirun"):
        raise SystemExit("needs mpicc and mpirun (Open MPI)")
    work = tempfile.mkdtemp(prefix="at-bench-mpi-reduce-")
    src = os.path.join(work, "job.c")
    with open(src, "w") as f:
        f.write(PROG)
    exe = os.path.join(work, "job")
    env = dict(os.environ,
               OMPI_CC=os.path.join(os.path.abspath(a.build_dir), "bin",
                                    "activetime-clang"))
    subprocess.run(["mpicc", "--activetime-mpi", "-O2", src, "-o", exe],
                   env=env, check=True)
    out = "output=%s/p.%%r.raw" % work
    print("MPI job on P ranks (oversubscribed, %d cores), %d interleaved runs "
          "per P and setting; medians" % (os.cpu_count(), a.runs))
    print("  %5s %6s %10s %12s %18s %24s %24s %8s" % (
        "ranks", "rounds", "job bytes", "reduction", "MPI_Finalize 1 / 0",
        "wall reduce=1 (min-max)", "wall reduce=0 (min-max)", "diff"))
    for p in [int(x) for x in a.ranks.split(",")]:
        red, on, off, fon, foff, rounds, size = [], [], [], [], [], None, None
        for _ in range(a.runs):
            wall, fin, err = run_job(exe, p, out + ",verbosity=1", work)
            m = LINE.search(err)
            if not m or int(m.group(1)) != p:
                raise SystemExit("no reduction line for %d ranks:\n%s" % (p, err))
            rounds, size = int(m.group(2)), int(m.group(3))
            red.append(float(m.group(4)))
            on.append(wall)
            fon.append(fin)
            wall, fin, _ = run_job(exe, p, out + ",mpi_reduce=0", work)
            off.append(wall)
            foff.append(fin)
        mon, moff = statistics.median(on), statistics.median(off)
        print("  %5d %6d %10d %9.1f ms %7.1f / %5.1f ms %24s %24s %+5.0f ms" % (
            p, rounds, size, statistics.median(red), statistics.median(fon),
            statistics.median(foff), spread(on), spread(off), mon - moff))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
