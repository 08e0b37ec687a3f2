//===- activetime_mpi_wrappers.cpp - MPI routines through PMPI --*- C++ -*-===//
//
// Part of ActiveTime: libactivetime_mpi.a, the optional MPI part (see
// runtime/activetime_mpi.h). It defines the MPI C routines that take time
// (start-up and finalization, point-to-point, waits and tests,
// collectives), each calling its PMPI_ twin between the same entry and exit
// probes the pass emits. Their descriptors are a module of their own,
// registered like a compiled module's, with FF_Mpi: a routine's calls are
// then a node of the calling function named after the routine, and the
// call tree, the flat profile and every view hold time in MPI per call path
// and per routine with nothing added to them. What the tree cannot hold,
// message bytes and the rank, goes to the runtime through
// __activetime_mpi_attach and __activetime_mpi_rank. At MPI_Finalize it
// gives the runtime a transport over a duplicate of MPI_COMM_WORLD, over
// which the ranks reduce their profiles into one (__activetime_mpi_reduce).
//
// The only file that includes <mpi.h>; it is compiled with the MPI
// implementation's include directories and uses nothing of the runtime but
// its exported entry points, so the runtime does not depend on MPI.
//
//===----------------------------------------------------------------------===//

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "activetime/abi.h"

#include <stdint.h>

#define AT_MPI_CAT2(A, B) A##B
#define AT_MPI_CAT(A, B) AT_MPI_CAT2(A, B)
#define AT_MPI_VERSION_CHECK                                                   \
  AT_MPI_CAT(__activetime_version_mismatch_check_v, ACTIVETIME_ABI_VERSION)

extern "C" {
void __activetime_func_enter(const activetime::abi::FuncDesc *Fn, void *Frame);
void __activetime_func_exit(const activetime::abi::FuncDesc *Fn, void *Frame);
void __activetime_mpi_attach(activetime::abi::ModuleDesc *M,
                             const uint64_t *Bytes);
void __activetime_mpi_rank(int Rank, int Size);
int __activetime_mpi_reduce_wanted(void);
int __activetime_mpi_reduce(uint32_t Rank, uint32_t Size, int Contribute,
                            const activetime::abi::MpiTransport *T);
// A runtime of another ABI fails the link, as with a compiled module.
void AT_MPI_VERSION_CHECK(void);
}

// The routines wrapped, in table order (their function ids follow it).
#define AT_MPI_ROUTINES(X)                                                     \
  X(MPI_Init) X(MPI_Init_thread) X(MPI_Finalize)                               \
  X(MPI_Send) X(MPI_Ssend) X(MPI_Bsend) X(MPI_Rsend)                           \
  X(MPI_Isend) X(MPI_Issend) X(MPI_Recv) X(MPI_Irecv)                          \
  X(MPI_Sendrecv) X(MPI_Sendrecv_replace) X(MPI_Probe) X(MPI_Iprobe)           \
  X(MPI_Wait) X(MPI_Waitall) X(MPI_Waitany) X(MPI_Waitsome)                    \
  X(MPI_Test) X(MPI_Testall) X(MPI_Testany)                                    \
  X(MPI_Barrier) X(MPI_Bcast) X(MPI_Reduce) X(MPI_Allreduce)                   \
  X(MPI_Gather) X(MPI_Gatherv) X(MPI_Allgather) X(MPI_Allgatherv)              \
  X(MPI_Scatter) X(MPI_Scatterv) X(MPI_Alltoall) X(MPI_Alltoallv)              \
  X(MPI_Reduce_scatter_block) X(MPI_Scan) X(MPI_Exscan)                        \
  X(MPI_Ibarrier) X(MPI_Ibcast) X(MPI_Ireduce) X(MPI_Iallreduce)

namespace __activetime {
namespace {

using activetime::abi::FuncDesc;
using activetime::abi::ModuleDesc;

enum Routine : uint32_t {
#define AT_MPI_ENUM(Name) R_##Name,
  AT_MPI_ROUTINES(AT_MPI_ENUM)
#undef AT_MPI_ENUM
  kNumRoutines
};

// Constant-initialized: a wrapper may run before any constructor of ours
// (an MPI call from an earlier constructor), and then records nothing yet.
FuncDesc funcs[kNumRoutines] = {
#define AT_MPI_DESC(Name)                                                      \
  {(const void *)&Name, #Name, nullptr, 0, activetime::abi::FF_Mpi},
    AT_MPI_ROUTINES(AT_MPI_DESC)
#undef AT_MPI_DESC
};

// Message bytes per routine, added to by every thread (relaxed: only the
// writer reads them, at the end or at a flush).
uint64_t bytes[kNumRoutines];

ModuleDesc module = {
    .AbiVersion = activetime::abi::kAbiVersion,
    .NumFuncs = kNumRoutines,
    .Funcs = funcs,
    .ModuleName = activetime::abi::kMpiModuleName,
};

// FNV-1a of the names in table order: the same in every build of this
// table, as a compiled module's hash is of its function names.
uint64_t NamesHash() {
  uint64_t H = 0xcbf29ce484222325ull;
  for (const FuncDesc &F : funcs) {
    for (const char *P = F.Name; *P; ++P)
      H = (H ^ uint8_t(*P)) * 0x100000001b3ull;
    H = (H ^ 0) * 0x100000001b3ull;
  }
  return H;
}

// At the priority of the compiled modules' constructors (abi.h).
__attribute__((constructor(101))) void AttachMpiModule() {
  AT_MPI_VERSION_CHECK();
  module.Hash = NamesHash();
  __activetime_mpi_attach(&module, bytes);
}

// One wrapper call: the entry probe now, the exit probe when the wrapper
// returns. Frame is the wrapper's return-address slot, as the pass passes
// llvm.addressofreturnaddress (this file keeps its frame pointers).
struct Call {
  const FuncDesc *Fn;
  void *Frame;
  __attribute__((always_inline)) Call(Routine R, void *Frame)
      : Fn(&funcs[R]), Frame(Frame) {
    __activetime_func_enter(Fn, Frame);
  }
  __attribute__((always_inline)) ~Call() { __activetime_func_exit(Fn, Frame); }
};

#define AT_MPI_FRAME()                                                         \
  ((void *)((char *)__builtin_frame_address(0) + sizeof(void *)))
#define AT_MPI_CALL(Name) Call AtCall(R_##Name, AT_MPI_FRAME())

// Count elements of T, in bytes; 0 for a datatype the call ignores.
uint64_t Size(int Count, MPI_Datatype T) {
  int S = 0;
  if (Count <= 0 || T == MPI_DATATYPE_NULL ||
      PMPI_Type_size(T, &S) != MPI_SUCCESS || S <= 0)
    return 0;
  return uint64_t(Count) * uint64_t(S);
}

int CommSize(MPI_Comm C) {
  int N = 0;
  return PMPI_Comm_size(C, &N) == MPI_SUCCESS ? N : 0;
}

// A call's bytes count once it succeeded.
void Add(Routine R, int Ret, uint64_t B) {
  if (Ret == MPI_SUCCESS && B)
    __atomic_fetch_add(&bytes[R], B, __ATOMIC_RELAXED);
}

void NoteRank(int Ret) {
  int Rank = 0, N = 0;
  if (Ret == MPI_SUCCESS && PMPI_Comm_rank(MPI_COMM_WORLD, &Rank) == MPI_SUCCESS &&
      PMPI_Comm_size(MPI_COMM_WORLD, &N) == MPI_SUCCESS)
    __activetime_mpi_rank(Rank, N);
}

uint64_t SumSizes(const int *Counts, MPI_Datatype T, MPI_Comm C) {
  uint64_t B = 0;
  int N = Counts ? CommSize(C) : 0;
  for (int I = 0; I < N; ++I)
    B += Size(Counts[I], T);
  return B;
}

// The reduction's transport (abi.h): blocking point-to-point messages of
// bytes on its own communicator, so no message of the program's can match.
constexpr int kReduceTag = 0x4154; // "AT"

int SendBytes(void *Comm, uint32_t Peer, const void *Data, uint64_t N) {
  if (N > activetime::abi::kMpiMaxPiece)
    return -1;
  return PMPI_Send(Data, int(N), MPI_BYTE, int(Peer), kReduceTag,
                   *(MPI_Comm *)Comm) == MPI_SUCCESS
             ? 0
             : -1;
}

int RecvBytes(void *Comm, uint32_t Peer, void *Data, uint64_t N) {
  if (N > activetime::abi::kMpiMaxPiece)
    return -1;
  return PMPI_Recv(Data, int(N), MPI_BYTE, int(Peer), kReduceTag,
                   *(MPI_Comm *)Comm, MPI_STATUS_IGNORE) == MPI_SUCCESS
             ? 0
             : -1;
}

// At MPI_Finalize: the ranks' profiles into one file, over a duplicate of
// MPI_COMM_WORLD whose errors return instead of aborting (the runtime then
// counts the sender's ranks missing). Every rank decides alike from what
// all share (the job's size, the flags), so all take part or none does.
void ReduceProfiles() {
  int Up = 0, Down = 1, Rank = 0, N = 0, Main = 0;
  if (PMPI_Initialized(&Up) != MPI_SUCCESS || !Up ||
      PMPI_Finalized(&Down) != MPI_SUCCESS || Down ||
      PMPI_Comm_rank(MPI_COMM_WORLD, &Rank) != MPI_SUCCESS ||
      PMPI_Comm_size(MPI_COMM_WORLD, &N) != MPI_SUCCESS || N < 2 ||
      !__activetime_mpi_reduce_wanted())
    return;
  MPI_Comm Comm;
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &Comm) != MPI_SUCCESS)
    return;
  PMPI_Comm_set_errhandler(Comm, MPI_ERRORS_RETURN);
  // A rank finalizing on another thread than MPI_Init's takes no snapshot
  // (its main thread may still be running) and writes its own at exit.
  if (PMPI_Is_thread_main(&Main) != MPI_SUCCESS)
    Main = 0;
  activetime::abi::MpiTransport T = {&Comm, SendBytes, RecvBytes};
  __activetime_mpi_reduce(uint32_t(Rank), uint32_t(N), Main, &T);
  PMPI_Comm_free(&Comm);
}

} // namespace
} // namespace __activetime

using namespace __activetime;

// Bytes a rank gives to a call: count times the datatype's size of its send
// arguments (of the receive buffer for receives, of both for the exchanges;
// times the ranks for Alltoall). Waits, tests, probes and barriers move none.
#define AT_MPI_BODY(Name, PmpiCall, Bytes)                                     \
  AT_MPI_CALL(Name);                                                           \
  int Ret = PmpiCall;                                                          \
  Add(R_##Name, Ret, Bytes);                                                   \
  return Ret

extern "C" {

int MPI_Init(int *argc, char ***argv) {
  AT_MPI_CALL(MPI_Init);
  int Ret = PMPI_Init(argc, argv);
  NoteRank(Ret);
  return Ret;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  AT_MPI_CALL(MPI_Init_thread);
  int Ret = PMPI_Init_thread(argc, argv, required, provided);
  NoteRank(Ret);
  return Ret;
}

// The job's profile ends here: the reduction takes each rank's inside this
// call (which it shows as one call, open until then).
int MPI_Finalize(void) {
  AT_MPI_CALL(MPI_Finalize);
  ReduceProfiles();
  return PMPI_Finalize();
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Send, PMPI_Send(buf, count, datatype, dest, tag, comm),
              Size(count, datatype));
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Ssend, PMPI_Ssend(buf, count, datatype, dest, tag, comm),
              Size(count, datatype));
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Bsend, PMPI_Bsend(buf, count, datatype, dest, tag, comm),
              Size(count, datatype));
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Rsend, PMPI_Rsend(buf, count, datatype, dest, tag, comm),
              Size(count, datatype));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm, MPI_Request *request) {
  AT_MPI_BODY(MPI_Isend,
              PMPI_Isend(buf, count, datatype, dest, tag, comm, request),
              Size(count, datatype));
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, MPI_Request *request) {
  AT_MPI_BODY(MPI_Issend,
              PMPI_Issend(buf, count, datatype, dest, tag, comm, request),
              Size(count, datatype));
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, MPI_Status *status) {
  AT_MPI_BODY(MPI_Recv,
              PMPI_Recv(buf, count, datatype, source, tag, comm, status),
              Size(count, datatype));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, MPI_Request *request) {
  AT_MPI_BODY(MPI_Irecv,
              PMPI_Irecv(buf, count, datatype, source, tag, comm, request),
              Size(count, datatype));
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status *status) {
  AT_MPI_BODY(MPI_Sendrecv,
              PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
                            recvbuf, recvcount, recvtype, source, recvtag,
                            comm, status),
              Size(sendcount, sendtype) + Size(recvcount, recvtype));
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                         int sendtag, int source, int recvtag, MPI_Comm comm,
                         MPI_Status *status) {
  AT_MPI_BODY(MPI_Sendrecv_replace,
              PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag,
                                    source, recvtag, comm, status),
              2 * Size(count, datatype));
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  AT_MPI_BODY(MPI_Probe, PMPI_Probe(source, tag, comm, status), 0);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status) {
  AT_MPI_BODY(MPI_Iprobe, PMPI_Iprobe(source, tag, comm, flag, status), 0);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  AT_MPI_BODY(MPI_Wait, PMPI_Wait(request, status), 0);
}

int MPI_Waitall(int count, MPI_Request array_of_requests[],
                MPI_Status array_of_statuses[]) {
  AT_MPI_BODY(MPI_Waitall,
              PMPI_Waitall(count, array_of_requests, array_of_statuses), 0);
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index,
                MPI_Status *status) {
  AT_MPI_BODY(MPI_Waitany,
              PMPI_Waitany(count, array_of_requests, index, status), 0);
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]) {
  AT_MPI_BODY(MPI_Waitsome,
              PMPI_Waitsome(incount, array_of_requests, outcount,
                            array_of_indices, array_of_statuses),
              0);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  AT_MPI_BODY(MPI_Test, PMPI_Test(request, flag, status), 0);
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[]) {
  AT_MPI_BODY(MPI_Testall,
              PMPI_Testall(count, array_of_requests, flag, array_of_statuses),
              0);
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int *index,
                int *flag, MPI_Status *status) {
  AT_MPI_BODY(MPI_Testany,
              PMPI_Testany(count, array_of_requests, index, flag, status), 0);
}

int MPI_Barrier(MPI_Comm comm) {
  AT_MPI_BODY(MPI_Barrier, PMPI_Barrier(comm), 0);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
              MPI_Comm comm) {
  AT_MPI_BODY(MPI_Bcast, PMPI_Bcast(buffer, count, datatype, root, comm),
              Size(count, datatype));
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Reduce,
              PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm),
              Size(count, datatype));
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Allreduce,
              PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm),
              Size(count, datatype));
}

// MPI_IN_PLACE at the root: its contribution is already in the receive
// buffer, and the send arguments are ignored (they may be anything).
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm) {
  AT_MPI_BODY(MPI_Gather,
              PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, root, comm),
              sendbuf == MPI_IN_PLACE ? Size(recvcount, recvtype)
                                      : Size(sendcount, sendtype));
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, const int recvcounts[], const int displs[],
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Gatherv,
              PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                           displs, recvtype, root, comm),
              sendbuf == MPI_IN_PLACE ? 0 : Size(sendcount, sendtype));
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm) {
  AT_MPI_BODY(MPI_Allgather,
              PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm),
              sendbuf == MPI_IN_PLACE ? Size(recvcount, recvtype)
                                      : Size(sendcount, sendtype));
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int displs[],
                   MPI_Datatype recvtype, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Allgatherv,
              PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                              recvcounts, displs, recvtype, comm),
              sendbuf == MPI_IN_PLACE ? 0 : Size(sendcount, sendtype));
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  AT_MPI_BODY(MPI_Scatter,
              PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, root, comm),
              recvbuf == MPI_IN_PLACE ? Size(sendcount, sendtype)
                                      : Size(recvcount, recvtype));
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
                 const int displs[], MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  AT_MPI_BODY(MPI_Scatterv,
              PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                            recvcount, recvtype, root, comm),
              recvbuf == MPI_IN_PLACE ? 0 : Size(recvcount, recvtype));
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 MPI_Comm comm) {
  AT_MPI_BODY(MPI_Alltoall,
              PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, comm),
              uint64_t(CommSize(comm)) *
                  (sendbuf == MPI_IN_PLACE ? Size(recvcount, recvtype)
                                           : Size(sendcount, sendtype)));
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Alltoallv,
              PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                             recvcounts, rdispls, recvtype, comm),
              sendbuf == MPI_IN_PLACE ? SumSizes(recvcounts, recvtype, comm)
                                      : SumSizes(sendcounts, sendtype, comm));
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Reduce_scatter_block,
              PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype,
                                        op, comm),
              uint64_t(CommSize(comm)) * Size(recvcount, datatype));
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count,
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Scan,
              PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm),
              Size(count, datatype));
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  AT_MPI_BODY(MPI_Exscan,
              PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm),
              Size(count, datatype));
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  AT_MPI_BODY(MPI_Ibarrier, PMPI_Ibarrier(comm, request), 0);
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm, MPI_Request *request) {
  AT_MPI_BODY(MPI_Ibcast,
              PMPI_Ibcast(buffer, count, datatype, root, comm, request),
              Size(count, datatype));
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *request) {
  AT_MPI_BODY(MPI_Ireduce,
              PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm,
                           request),
              Size(count, datatype));
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request) {
  AT_MPI_BODY(MPI_Iallreduce,
              PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm,
                              request),
              Size(count, datatype));
}

} // extern "C"
