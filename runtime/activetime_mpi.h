//===- activetime_mpi.h - What the MPI part tells the runtime ---*- C++ -*-===//
//
// Part of ActiveTime. The optional MPI part (libactivetime_mpi.a,
// runtime/mpi/) wraps the MPI routines of the program and is the only
// code that includes <mpi.h>: the runtime itself knows MPI only through
// the entry points below (activetime_interface.h), so a program
// without MPI links and runs exactly as before.
//
//  - __activetime_mpi_attach(M, Bytes): from the part's constructor. M is
//    a module of the wrappers' descriptors (one per routine, FF_Mpi),
//    registered like a compiled module, so every wrapper call is a node of
//    its caller; Bytes[I] is the message bytes of routine I so far, which
//    the part adds to (relaxed atomics) and the writer reads.
//  - __activetime_mpi_rank(Rank, Size): after MPI_Init, MPI_COMM_WORLD's.
//  - __activetime_mpi_reduce_wanted() and __activetime_mpi_reduce(...): at
//    MPI_Finalize, the reduction of the job's profiles into one file over
//    the part's transport (activetime_mpi_reduce.h).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_MPI_H
#define ACTIVETIME_MPI_H

#include "activetime_internal.h"

namespace __activetime {

// The process's rank, once MPI_Init told it; false before (or without MPI).
bool MpiRank(u32 *Rank);

// The rank a launcher put into the environment (Open MPI, PMIx, MPICH's
// PMI), for an output path expanded before MPI_Init or in a program without
// the MPI part; false if none.
bool LauncherRank(u32 *Rank);

} // namespace __activetime

#endif // ACTIVETIME_MPI_H
