// The reduction at MPI_Finalize: 8 ranks (oversubscribed) send their
// profiles to rank 0 over MPI, which writes the job's profile (output= with
// %r as "job"); no rank writes its own. With mpi_rank_files=1 each rank
// writes its own too, from the same snapshot: activetime merge of those
// gives the same report, text and JSON, as the job's profile. The tree
// takes 3 rounds for 8 ranks; the program's output and exit status are
// those of the same program built without ActiveTime.
// REQUIRES: mpi
// RUN: rm -rf %t && mkdir -p %t/files %t/merged && cd %t
// RUN: %mpicc --activetime-mpi -O1 -g %s -o prog
// RUN: %plain_mpicc -O1 -g %s -o plain
// RUN: %mpirun -np 8 ./plain > plain.out; echo $? > plain.rc
// RUN: %mpirun -np 8 -x ACTIVETIME_OPTIONS=output=%t/prof.%%r.raw,verbosity=1 ./prog > prog.out 2> prog.err; echo $? > prog.rc
// RUN: diff plain.out prog.out && diff plain.rc prog.rc
// RUN: ls prof.* | FileCheck --check-prefix=JOBONLY %s
// JOBONLY:     prof.job.raw
// JOBONLY-NOT: prof.
// RUN: FileCheck --check-prefix=VERBOSE %s < prog.err
// VERBOSE: ActiveTime: MPI profile reduction: 8 ranks, 3 rounds, {{[0-9]+}} bytes, {{[0-9]+\.[0-9][0-9][0-9]}} ms (snapshot
// VERBOSE-NOT: WARNING
// Every rank, in rank order, each with the function that ran on it.
// RUN: %activetime report --json prof.job.raw | python3 -c "import json,sys; d=json.load(sys.stdin); print([p['mpi_rank'] for p in d['processes']], d['mpi']['ranks'], d['mpi']['job_size'])" | FileCheck --check-prefix=RANKS %s
// RANKS: [0, 1, 2, 3, 4, 5, 6, 7] 8 8
// RUN: %activetime report prof.job.raw | FileCheck --check-prefix=REPORT %s
// REPORT: MPI: 8 ranks of a job of 8
// REPORT: MPI imbalance over 8 ranks
//
// The ranks' own files from the same snapshot: merged offline, the same
// report as the job's.
// RUN: cd %t/files && %mpirun -np 8 -x ACTIVETIME_OPTIONS=output=%t/files/p.%%r.raw,mpi_rank_files=1 ../prog > ../files.out
// RUN: diff %t/plain.out %t/files.out
// RUN: ls | FileCheck --check-prefix=RANKFILES %s
// RANKFILES:      p.0.raw
// RANKFILES-NEXT: p.1.raw
// RANKFILES:      p.7.raw
// RANKFILES-NEXT: p.job.raw
// RUN: %activetime merge -o %t/merged/p.job.raw p.0.raw p.1.raw p.2.raw p.3.raw p.4.raw p.5.raw p.6.raw p.7.raw
// RUN: %activetime report p.job.raw > %t/job.txt
// RUN: %activetime report --json p.job.raw > %t/job.json
// RUN: cd %t/merged && %activetime report p.job.raw > %t/merged.txt
// RUN: cd %t/merged && %activetime report --json p.job.raw > %t/merged.json
// RUN: diff %t/job.txt %t/merged.txt && diff %t/job.json %t/merged.json
//
// A non-zero exit status is kept; a name without %r gets ".job" before its
// extension (it is rank 0's own name otherwise).
// RUN: cd %t && %mpirun -np 8 -x ACTIVETIME_OPTIONS=output=%t/plainname.raw ./prog 3 > prog3.out 2>/dev/null; echo $? > prog3.rc
// RUN: %mpirun -np 8 ./plain 3 > plain3.out 2>/dev/null; echo $? > plain3.rc
// RUN: diff plain3.out prog3.out && diff plain3.rc prog3.rc
// RUN: ls plainname* | FileCheck --check-prefix=NORANK %s
// NORANK:     plainname.job.raw
// NORANK-NOT: plainname
//
// %r in a directory: the job's directory is "job", no rank's is made.
// RUN: %mpirun -np 2 -x ACTIVETIME_OPTIONS=output=%t/ranks/%%r/p.raw ./prog > dirs.out
// RUN: ls %t/ranks | FileCheck --check-prefix=DIRS %s
// DIRS-NOT: {{^[0-9]}}
// DIRS:     {{^job$}}
// DIRS-NOT: {{^[0-9]}}
// RUN: test -f %t/ranks/job/p.raw
//
// mpi_reduce=0: each rank writes its own at exit, as before.
// RUN: %mpirun -np 8 -x ACTIVETIME_OPTIONS=output=%t/off.%%r.raw,mpi_reduce=0 ./prog > off.out
// RUN: ls off.* | FileCheck --check-prefix=OFF %s
// OFF:     off.0.raw
// OFF:     off.7.raw
// OFF-NOT: off.job.raw
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

volatile double sink;

// (rank + 1) units of arithmetic: the imbalance table has something to show.
NOINLINE static void compute(int units) {
  double x = 0;
  for (long i = 0; i < units * 200000L; ++i)
    x += (double)(i & 7) * 0.5;
  sink = x;
}

NOINLINE static double combine(int rank) {
  double v = rank, total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  compute(rank + 1);
  double total = combine(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  // After MPI_Finalize: not in the job's profile, but the program's own.
  if (rank == 0)
    printf("ranks %d, total %.1f\n", size, total);
  // Rank 0's status: it has printed before it exits, whatever the others do.
  return argc > 1 && rank == 0 ? atoi(argv[1]) : 0;
}
