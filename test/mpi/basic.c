// An MPI program built with the MPI part through mpicc (OMPI_CC=the wrapper)
// and run on 4 ranks without the reduction at MPI_Finalize (mpi_reduce=0,
// reduce.c has it): one profile per rank at exit (%r in output=), the rank and
// job size in each header, each MPI routine a callee of the function that
// called it with its exact calls, and its message bytes (count times the
// datatype's size). The program's output and exit status are those of the
// same program built without ActiveTime.
// REQUIRES: mpi
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mpicc --activetime-mpi -O1 -g %s -o prog
// RUN: %plain_mpicc -O1 -g %s -o plain
// RUN: %mpirun -np 4 ./plain > plain.out
// RUN: %mpirun -np 4 -x ACTIVETIME_OPTIONS=output=%t/prof.%%r.raw,mpi_reduce=0 ./prog > prog.out
// RUN: diff plain.out prog.out
// RUN: ls prof.*.raw | FileCheck --check-prefix=FILES %s
// FILES:      prof.0.raw
// FILES-NEXT: prof.1.raw
// FILES-NEXT: prof.2.raw
// FILES-NEXT: prof.3.raw
// RUN: %activetime report prof.2.raw | FileCheck --check-prefix=HEAD %s
// HEAD:      process {{[0-9]+}}
// HEAD:        MPI rank:        2 of 4 (MPI_COMM_WORLD)
// HEAD:      MPI: 1 rank of a job of 4; time inside MPI calls
// HEAD-NEXT:   routine
// HEAD-DAG:    MPI_Isend 3 {{.*}} 1.2 KiB
// HEAD-DAG:    MPI_Recv 3 {{.*}} 1.2 KiB
// HEAD-DAG:    MPI_Wait 3 {{.*}} 0 B
// HEAD-DAG:    MPI_Allreduce 2 {{.*}} 160 B
// HEAD-DAG:    MPI_Bcast 1 {{.*}} 16 B
// HEAD-DAG:    MPI_Barrier 1 {{.*}} 0 B
// HEAD-DAG:    MPI_Init 1
// HEAD-DAG:    MPI_Finalize 1
// RUN: %activetime report --json prof.2.raw | python3 %S/../Inputs/callpaths.py | FileCheck --check-prefix=TREE %s
// TREE:      1 main
// TREE-NEXT: 1 main > MPI_Barrier
// TREE-NEXT: 1 main > MPI_Finalize
// TREE-NEXT: 1 main > MPI_Init
// TREE-NEXT: 1 main > exchange
// TREE-NEXT: 3 main > exchange > MPI_Isend
// TREE-NEXT: 3 main > exchange > MPI_Recv
// TREE-NEXT: 3 main > exchange > MPI_Wait
// TREE-NEXT: 1 main > reduce
// TREE-NEXT: 2 main > reduce > MPI_Allreduce
// TREE-NEXT: 1 main > reduce > MPI_Bcast
// RUN: %activetime report --json prof.3.raw | python3 -c "import json,sys; d=json.load(sys.stdin); p=d['processes'][0]; m=d['mpi']; print(p['mpi_rank'], p['mpi_size'], m['ranks'], m['job_size'], m['bytes']); [print(r['name'], r['calls'], r['bytes']) for r in sorted(m['routines'], key=lambda r: r['name'])]" | FileCheck --check-prefix=JSON %s
// JSON:      3 4 1 4 2576
// JSON-NEXT: MPI_Allreduce 2 160
// JSON-NEXT: MPI_Barrier 1 0
// JSON-NEXT: MPI_Bcast 1 16
// JSON-NEXT: MPI_Finalize 1 0
// JSON-NEXT: MPI_Init 1 0
// JSON-NEXT: MPI_Isend 3 1200
// JSON-NEXT: MPI_Recv 3 1200
// JSON-NEXT: MPI_Wait 3 0
// The export holds the same (its schema documents the fields).
// RUN: %activetime export --format=json prof.1.raw -o export.json
// RUN: %validate schema %export_schema export.json | FileCheck --check-prefix=SCHEMA %s
// SCHEMA: valid against activetime-export
// All four ranks in one report: the calls and bytes add up.
// RUN: %activetime report prof.0.raw prof.1.raw prof.2.raw prof.3.raw | FileCheck --check-prefix=ALL %s
// ALL: MPI: 4 ranks of a job of 4; {{.*}} 10.1 KiB of messages
// ALL-DAG: MPI_Isend 12 {{.*}} 4.7 KiB
// ALL-DAG: MPI_Allreduce 8 {{.*}} 640 B
//
// Started without mpirun (a singleton MPI_Init): no rank is known at
// start-up, rank 0 of 1 at the write, whose path's directory is made then.
// RUN: env ACTIVETIME_OPTIONS=output=%t/single%%r/p.raw ./prog > single.out
// RUN: ls -d single* | FileCheck --check-prefix=SINGLE %s
// SINGLE:     single.out
// SINGLE-NEXT: single0
// SINGLE-NOT: single-
// RUN: %activetime report single0/p.raw | FileCheck --check-prefix=SINGLEHEAD %s
// SINGLEHEAD: MPI rank: 0 of 1 (MPI_COMM_WORLD)
// A non-zero exit status of the ranks is kept too.
// RUN: %mpirun -np 4 ./plain 3 > plain3.out 2>/dev/null; echo $? > plain3.rc
// RUN: %mpirun -np 4 -x ACTIVETIME_OPTIONS=output=%t/exit.%%r.raw ./prog 3 > prog3.out 2>/dev/null; echo $? > prog3.rc
// RUN: FileCheck --check-prefix=RC %s < prog3.rc
// RC: {{^[1-9][0-9]*$}}
// RUN: diff plain3.out prog3.out && diff plain3.rc prog3.rc
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static int rank, size;

// A ring: three rounds of 100 ints to the next rank.
NOINLINE static long exchange(void) {
  int out[100], in[100];
  long sum = 0;
  for (int round = 0; round < 3; ++round) {
    MPI_Request req;
    for (int i = 0; i < 100; ++i)
      out[i] = rank * 1000 + round * 100 + i;
    MPI_Isend(out, 100, MPI_INT, (rank + 1) % size, round, MPI_COMM_WORLD, &req);
    MPI_Recv(in, 100, MPI_INT, (rank + size - 1) % size, round, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < 100; ++i)
      sum += in[i];
  }
  return sum;
}

// Two reductions of 10 doubles, one broadcast of 4 ints.
NOINLINE static double reduce(long local) {
  double v[10], total[10];
  for (int i = 0; i < 10; ++i)
    v[i] = (double)local + i;
  MPI_Allreduce(v, total, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, total, 10, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int params[4] = {rank, 1, 2, 3};
  MPI_Bcast(params, 4, MPI_INT, 0, MPI_COMM_WORLD);
  return total[9] + params[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long local = exchange();
  double result = reduce(local);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("ranks %d, result %.1f\n", size, result);
  MPI_Finalize();
  return argc > 1 ? atoi(argv[1]) : 0;
}
