// How the MPI part gets into a program: --activetime-mpi, or by itself when
// the link line has -lmpi (mpicc with OMPI_CC=activetime-clang adds it);
// --activetime-no-mpi leaves it out. With the part, the program defines the
// MPI routines it wraps (MPI_Send) and leaves the others to libmpi
// (MPI_Comm_rank); without it, it defines none.
// REQUIRES: mpi
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mpicc -O1 %s -o auto && llvm-nm auto | FileCheck --check-prefix=PART %s
// RUN: %mpicc --activetime-mpi -O1 %s -o flag && llvm-nm flag | FileCheck --check-prefix=PART %s
// PART-DAG: {{ T }}MPI_Send{{$}}
// PART-DAG: {{ T }}MPI_Init{{$}}
// PART-DAG: {{ U }}PMPI_Send{{$}}
// PART-DAG: {{ U }}MPI_Comm_rank{{$}}
// RUN: %mpicc --activetime-no-mpi -O1 %s -o none && llvm-nm none | FileCheck --check-prefix=NONE %s
// NONE: {{ U }}MPI_Send{{$}}
// NONE-NOT: PMPI_Send
// Where it goes on the line: whole (-lmpi before it defines the same
// names), before the runtime; never into a shared library.
// RUN: env ACTIVETIME_CLANG=echo %at_cc x.o -o x -lmpi | FileCheck --check-prefix=LINE %s
// LINE: x.o -o x -lmpi -idirafter {{[^ ]*}}/include -Wl,--whole-archive {{[^ ]*}}/lib/libactivetime_mpi.a -Wl,--no-whole-archive {{[^ ]*}}/lib/libactivetime_rt.a
// RUN: env ACTIVETIME_CLANG=echo %at_cc --activetime-mpi -shared x.o -o x.so | FileCheck --check-prefix=SHLIB %s
// SHLIB-NOT: libactivetime_mpi.a
// Without the part, %r is the launcher's rank (OMPI_COMM_WORLD_RANK), and
// the header has no MPI rank; outside any MPI job it is '-'.
// RUN: %mpirun -np 2 -x ACTIVETIME_OPTIONS=output=%t/none.%%r.raw ./none recv
// RUN: ls none.*.raw | FileCheck --check-prefix=LAUNCHER %s
// LAUNCHER:      none.0.raw
// LAUNCHER-NEXT: none.1.raw
// RUN: %activetime report none.1.raw | FileCheck --check-prefix=NORANK %s
// NORANK-NOT: MPI rank
// RUN: %at_cc -O1 %S/Inputs/serial.c -o serial
// RUN: env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK ACTIVETIME_OPTIONS=output=%t/serial.%%r.raw ./serial
// RUN: ls serial.*.raw | FileCheck --check-prefix=SERIAL %s
// SERIAL: serial.-.raw
// A compile step alone never links it.
// RUN: %mpicc --activetime-mpi -O1 -c %s -o obj.o && llvm-nm obj.o | FileCheck --check-prefix=NONE %s
#include <mpi.h>

int main(int argc, char **argv) {
  int rank, v = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1)
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  else if (rank == 0 && argc > 1)
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
