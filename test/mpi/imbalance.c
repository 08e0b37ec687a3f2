// Known per-rank work: rank r computes (r+1)^2 units W (1, 4, 9, 16), then
// all meet in MPI_Barrier. The ranks that finished first wait longest, so
// the time inside MPI_Barrier falls with the rank: checked as an ordering
// only (the 4 ranks share a loaded 2-core machine), rank 0 against rank 3
// (15 units of work apart), in elapsed time (on or off the CPU, the wait is
// time in MPI). The work grows with the square of the rank so that
// neighbours stay 3 units or more apart: with r+1 units, rank 2's and
// rank 3's compute (one unit, 40 ms, apart) swapped once in a parallel test
// run on a loaded VM, whose host takes CPU time the guest cannot see. The barrier is
// a callee of sync_ranks, the work of compute. Each rank's own profile
// (mpi_rank_files=1) beside the job's.
// REQUIRES: mpi
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mpicc --activetime-mpi -O1 -g %s -o prog
// RUN: %mpirun -np 4 -x ACTIVETIME_OPTIONS=output=%t/p.%%r.raw,mpi_rank_files=1 ./prog | FileCheck --check-prefix=OUT %s
// OUT: done 4
// RUN: for r in 0 1 2 3; do %activetime report --json p.$r.raw > p.$r.json || exit 1; done
// RUN: python3 %S/Inputs/barrier_order.py p.0.json p.1.json p.2.json p.3.json | FileCheck %s
// CHECK:      ranks 0 1 2 3 of 4
// CHECK-NEXT: barrier calls 1 1 1 1
// CHECK-NEXT: rank 0 waits longer than rank 3: yes
// CHECK:      path: main > sync_ranks > MPI_Barrier
#include <mpi.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

volatile double sink;

// About 40 ms of arithmetic per unit (the dependent additions do not
// vectorize): rank 3 computes 600 ms longer than rank 0.
NOINLINE static void compute(int units) {
  double x = 0;
  for (long i = 0; i < units * 40000000L; ++i)
    x += (double)(i & 7) * 0.5;
  sink = x;
}

NOINLINE static void sync_ranks(void) { MPI_Barrier(MPI_COMM_WORLD); }

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  compute((rank + 1) * (rank + 1));
  sync_ranks();
  if (rank == 0)
    printf("done %d\n", size);
  MPI_Finalize();
  return 0;
}

// The imbalance table of the four ranks together: compute ran longest on
// rank 3 (16 units of work against 1, 4 and 9; active time, robust to the
// load) and least on rank 0.
// RUN: %activetime report p.0.raw p.1.raw p.2.raw p.3.raw | FileCheck --check-prefix=IMB %s
// The job's profile the ranks reduced at MPI_Finalize has the same table.
// RUN: %activetime report p.job.raw | FileCheck --check-prefix=IMB %s
// Each rank's time: computing and waiting, in rank order.
// IMB:      MPI time per rank:
// IMB-NEXT:   rank wall computing waiting on CPU MPI%
// IMB-NEXT:   0 {{.*}}%
// IMB-NEXT:   1 {{.*}}%
// IMB-NEXT:   2 {{.*}}%
// IMB-NEXT:   3 {{.*}}%
// IMB: MPI imbalance over 4 ranks
// IMB: {{ \(0\) +[0-9.]+ [mu]?s \(3\) }}{{.*}}compute
