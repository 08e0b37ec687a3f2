//===- activetime_mpi_reduce.h - An MPI job's profiles in one file -*- C++ -*-===//
//
// Part of ActiveTime. The reduction at MPI_Finalize
// (activetime_mpi_reduce.cpp): the binomial tree's schedule, and one
// rank's part in it over the MPI part's transport (abi.h, MpiTransport),
// which the entry point __activetime_mpi_reduce drives with the rank's
// snapshot and the unit tests with images of their own.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_MPI_REDUCE_H
#define ACTIVETIME_MPI_REDUCE_H

#include "activetime/abi.h"
#include "activetime/raw_format.h"
#include "activetime_internal.h"

namespace __activetime {

struct OutBuffer;

// The binomial tree: in round K (from 0) a rank with bit K set sends what
// it holds to Rank - 2^K and leaves; a rank below it with none of bits
// 0..K set receives from Rank + 2^K when that rank exists, which brings the
// ranks [Rank + 2^K, Rank + 2^(K+1)) in rank order. Rank 0 holds every
// rank after MpiTreeRounds(Size) = ceil(log2 Size) rounds.
enum class TreeAction { Receive, Send, Wait, Gone };
struct TreeStep {
  TreeAction Action;
  u32 Peer; // Receive: the sender; Send: the receiver
  u32 End;  // Receive: one past the last rank the sender brings
};
u32 MpiTreeRounds(u32 Size);
TreeStep MpiTreeStep(u32 Rank, u32 Size, u32 Round);

// Bytes that grow by doubling in anonymous memory; Reserve fails (returns
// false) instead of ending the program when memory runs out.
struct ByteBuffer {
  char *Data = nullptr;
  uptr Size = 0, Cap = 0;

  bool Reserve(uptr N);
  bool Append(const void *P, uptr N);
  // Takes over an image the writer built in memory.
  void Adopt(OutBuffer *B);
  void Release();
};

// One rank's part in the reduction: what it holds so far, a file header
// (its own, or a placeholder) and then the sections of the ranks it has.
// A contribution, sender to receiver: a head (the sections' bytes and
// count, the number of ranks missing from them), the missing ranks, then
// the sections, each in pieces of at most Piece bytes.
class Reduction {
public:
  Reduction(const activetime::abi::MpiTransport *T, u64 Piece)
      : T(T), Piece(Piece) {}
  ~Reduction();

  // The rank's own profile (null: none, the rank is missing). Returns
  // whether the rank holds its own profile.
  bool Start(u32 Rank, OutBuffer *Own);
  // This rank's rounds; false if what it holds did not leave it (a failed
  // send). Every rank runs every round whatever happens: none waits for a
  // message that is not coming.
  bool RunTree(u32 Rank, u32 Size);
  // Rank 0, after the tree: the merged file's header in front, as the
  // tool's fileHeader writes it (FH_Merged). Returns the header it replaced.
  activetime::raw::FileHeader SealMerged();

  ByteBuffer Image;
  ByteBuffer Missing; // u32 ranks, ascending
  u64 NumSections = 0;

private:
  bool Send(u32 Peer);
  void Receive(u32 Peer, u32 End);
  bool Put(u32 Peer, const void *P, u64 N);
  bool Get(u32 Peer, void *P, u64 N);
  void Drain(u32 Peer, u64 N);
  bool AddMissing(u32 From, u32 End);
  void Lose(u32 Peer, u32 End, uptr ImageWas, uptr MissingWas);

  const activetime::abi::MpiTransport *T;
  u64 Piece;
};

} // namespace __activetime

#endif // ACTIVETIME_MPI_REDUCE_H
