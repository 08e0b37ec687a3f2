//===- activetime_mpi_reduce.cpp - An MPI job's profiles in one file ------===//
//
// Part of ActiveTime. At MPI_Finalize (before PMPI_Finalize) the MPI part
// hands the runtime a transport over a duplicate of MPI_COMM_WORLD
// (abi.h, MpiTransport), and the ranks reduce their profiles over it: each
// takes its profile as the exit-time write would write it now, and a
// binomial tree (activetime_mpi_reduce.h, MpiTreeStep) brings every rank's
// sections to rank 0 in rank order in ceil(log2 ranks) rounds. Rank 0 puts
// the header of a merged file in front (FH_Merged, as `activetime merge`
// writes it: a merged file is its inputs' process blocks, one after the
// other) and writes the job's profile; the ranks then write nothing at exit.
//
// What a rank sends: a head (its sections' bytes and count, the number of
// ranks missing from them), the missing ranks, then the sections, in
// pieces of at most kMpiMaxPiece bytes. Every rank runs the same rounds
// whatever happened: one without a profile (MPI_Finalize on another thread
// than MPI_Init's) sends none and names itself missing; a receiver that
// cannot hold what comes drains it and names the sender's ranks missing.
// So no rank ever waits for a message that is not coming.
//
//===----------------------------------------------------------------------===//

#include "activetime/raw_format.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_internal.h"
#include "activetime_mpi_reduce.h"
#include "activetime_output.h"
#include "activetime_worker.h"
#include "activetime_writer.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <sys/mman.h>

namespace __activetime {

namespace raw = activetime::raw;
using activetime::abi::kMpiMaxPiece;
using activetime::abi::MpiTransport;

u32 MpiTreeRounds(u32 Size) {
  u32 Rounds = 0;
  while ((u64(1) << Rounds) < Size)
    ++Rounds;
  return Rounds;
}

TreeStep MpiTreeStep(u32 Rank, u32 Size, u32 Round) {
  u64 Bit = u64(1) << Round;
  if (Rank & (Bit - 1))
    return {TreeAction::Gone, 0, 0};
  if (Rank & Bit)
    return {TreeAction::Send, u32(Rank - Bit), 0};
  if (Rank + Bit >= Size)
    return {TreeAction::Wait, 0, 0};
  return {TreeAction::Receive, u32(Rank + Bit), u32(Min<u64>(Rank + 2 * Bit, Size))};
}

constexpr uptr kHeader = sizeof(raw::FileHeader);

bool ByteBuffer::Reserve(uptr N) {
  if (Size + N <= Cap)
    return true;
  uptr NewCap = Max<uptr>(Cap, GetPageSizeCached());
  while (NewCap < Size + N)
    NewCap *= 2;
  uptr M = Data ? internal_mremap(Data, Cap, NewCap, MREMAP_MAYMOVE, nullptr)
                : internal_mmap(nullptr, NewCap, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (internal_iserror(M))
    return false;
  Data = (char *)M;
  Cap = NewCap;
  return true;
}

bool ByteBuffer::Append(const void *P, uptr N) {
  if (!Reserve(N))
    return false;
  internal_memcpy(Data + Size, P, N);
  Size += N;
  return true;
}

void ByteBuffer::Adopt(OutBuffer *B) {
  Data = B->Data;
  Size = B->Size;
  Cap = B->Cap;
  B->Data = nullptr;
  B->Size = B->Cap = 0;
}

void ByteBuffer::Release() {
  if (Data)
    internal_munmap(Data, Cap);
  Data = nullptr;
  Size = Cap = 0;
}

namespace {
// What a rank sends its receiver, in front of the missing ranks and the
// sections.
struct ContributionHead {
  u64 Bytes; // of the sections
  u32 NumSections;
  u32 NumMissing; // ranks whose sections are not in them
};
static_assert(sizeof(ContributionHead) == 16, "sent as bytes");
} // namespace

Reduction::~Reduction() {
  Image.Release();
  Missing.Release();
}

bool Reduction::Start(u32 Rank, OutBuffer *Own) {
  if (Own && Own->Size >= kHeader) {
    Image.Adopt(Own);
    NumSections = ((raw::FileHeader *)Image.Data)->NumSections;
    return true;
  }
  // A placeholder header keeps the sections at the same offset.
  if (Image.Reserve(kHeader)) {
    internal_memset(Image.Data, 0, kHeader);
    Image.Size = kHeader;
  }
  AddMissing(Rank, Rank + 1);
  return false;
}

bool Reduction::RunTree(u32 Rank, u32 Size) {
  for (u32 Round = 0, N = MpiTreeRounds(Size); Round < N; ++Round) {
    TreeStep S = MpiTreeStep(Rank, Size, Round);
    if (S.Action == TreeAction::Send)
      return Send(S.Peer);
    if (S.Action == TreeAction::Receive)
      Receive(S.Peer, S.End);
  }
  return true;
}

bool Reduction::Send(u32 Peer) {
  ContributionHead H = {Image.Size > kHeader ? Image.Size - kHeader : 0,
                        u32(NumSections), u32(Missing.Size / sizeof(u32))};
  return Put(Peer, &H, sizeof(H)) && Put(Peer, Missing.Data, Missing.Size) &&
         Put(Peer, Image.Data + kHeader, H.Bytes);
}

// The ranks [Peer, End): their sections, or their names as missing.
void Reduction::Receive(u32 Peer, u32 End) {
  uptr ImageWas = Image.Size, MissingWas = Missing.Size;
  ContributionHead H;
  if (!Get(Peer, &H, sizeof(H)))
    return Lose(Peer, End, ImageWas, MissingWas);
  u64 MissingBytes = H.NumMissing * u64(sizeof(u32));
  if (H.NumMissing > End - Peer || !Missing.Reserve(MissingBytes) ||
      !Get(Peer, Missing.Data + Missing.Size, MissingBytes))
    return Lose(Peer, End, ImageWas, MissingWas);
  Missing.Size += MissingBytes;
  if (!Image.Reserve(H.Bytes)) {
    Drain(Peer, H.Bytes);
    return Lose(Peer, End, ImageWas, MissingWas);
  }
  if (!Get(Peer, Image.Data + Image.Size, H.Bytes))
    return Lose(Peer, End, ImageWas, MissingWas);
  Image.Size += H.Bytes;
  NumSections += H.NumSections;
}

raw::FileHeader Reduction::SealMerged() {
  raw::FileHeader *H = (raw::FileHeader *)Image.Data;
  raw::FileHeader Own = *H;
  FillFileHeader(H, Image.Size, u32(NumSections), raw::FH_Merged);
  return Own;
}

bool Reduction::Put(u32 Peer, const void *P, u64 N) {
  for (u64 Done = 0; Done < N;) {
    u64 K = Min(N - Done, Piece);
    if (T->Send(T->Ctx, Peer, (const char *)P + Done, K) != 0)
      return false;
    Done += K;
  }
  return true;
}

bool Reduction::Get(u32 Peer, void *P, u64 N) {
  for (u64 Done = 0; Done < N;) {
    u64 K = Min(N - Done, Piece);
    if (T->Recv(T->Ctx, Peer, (char *)P + Done, K) != 0)
      return false;
    Done += K;
  }
  return true;
}

// Takes the sender's pieces without keeping them: it must not block.
void Reduction::Drain(u32 Peer, u64 N) {
  ByteBuffer Scratch;
  if (Scratch.Reserve(Min(N, Piece)))
    for (u64 Done = 0; Done < N;) {
      u64 K = Min(N - Done, Piece);
      if (T->Recv(T->Ctx, Peer, Scratch.Data, K) != 0)
        break;
      Done += K;
    }
  Scratch.Release();
}

bool Reduction::AddMissing(u32 From, u32 End) {
  for (u32 R = From; R < End; ++R)
    if (!Missing.Append(&R, sizeof(R)))
      return false;
  return true;
}

// What came from Peer is dropped, and its ranks named missing.
void Reduction::Lose(u32 Peer, u32 End, uptr ImageWas, uptr MissingWas) {
  Image.Size = ImageWas;
  Missing.Size = MissingWas;
  AddMissing(Peer, End);
}

namespace {

// Milliseconds with three decimals, from nanoseconds.
struct Millis {
  unsigned long long Whole, Frac;
  explicit Millis(u64 Ns) : Whole(Ns / 1000000), Frac(Ns / 1000 % 1000) {}
};

void ReportMissing(const ByteBuffer &Missing, u32 Size) {
  u32 N = u32(Missing.Size / sizeof(u32));
  if (!N)
    return;
  const u32 *R = (const u32 *)Missing.Data;
  char List[256];
  uptr L = 0;
  for (u32 I = 0; I < N && I < 16; ++I)
    L += internal_snprintf(List + L, sizeof(List) - L, "%s%u", I ? " " : "",
                           R[I]);
  Printf("ActiveTime: WARNING: the MPI job's profile lacks %u of its %u "
         "ranks: %s%s (a rank that could not take its profile at "
         "MPI_Finalize writes its own at exit)\n",
         N, Size, List, N > 16 ? " ..." : "");
}

struct Timings {
  u64 Begin, Snapshot, Exchange, End;
};

void ReportReduction(u32 Size, u64 Bytes, const Timings &T) {
  if (flags()->verbosity < 1)
    return;
  Millis All(T.End - T.Begin), Snap(T.Snapshot - T.Begin),
      Ex(T.Exchange - T.Snapshot), Wr(T.End - T.Exchange);
  Printf("ActiveTime: MPI profile reduction: %u ranks, %u rounds, %llu bytes, "
         "%llu.%03llu ms (snapshot %llu.%03llu, exchange %llu.%03llu, write "
         "%llu.%03llu)\n",
         Size, MpiTreeRounds(Size), (unsigned long long)Bytes, All.Whole,
         All.Frac, Snap.Whole, Snap.Frac, Ex.Whole, Ex.Frac, Wr.Whole, Wr.Frac);
}

// Rank 0, after the tree: the job's file, then its own if asked for.
// Returns whether the job's file holds rank 0's profile.
bool FinishRoot(Reduction &R, u32 Size, uptr OwnSize, Timings &T) {
  ReportMissing(R.Missing, Size);
  if (!R.NumSections) {
    Printf("ActiveTime: ERROR: no rank of the MPI job took its profile at "
           "MPI_Finalize: no job profile written\n");
    return false;
  }
  raw::FileHeader Own = R.SealMerged();
  bool Ok = WriteProfileImage(R.Image.Data, R.Image.Size, /*Job=*/true);
  T.End = MonotonicNs();
  if (Ok)
    ReportReduction(Size, R.Image.Size, T);
  if (OwnSize && flags()->mpi_rank_files) {
    internal_memcpy(R.Image.Data, &Own, kHeader);
    WriteProfileImage(R.Image.Data, OwnSize, /*Job=*/false);
  }
  return Ok && OwnSize;
}

// The whole reduction on one rank. Returns whether this rank's profile is
// in the job's (it has nothing more to write at exit).
bool ReduceJobProfile(u32 Rank, u32 Size, bool Contribute,
                      const MpiTransport *T) {
  Timings Times;
  Times.Begin = MonotonicNs();
  OutBuffer Own = {nullptr, 0, 0};
  if (Contribute)
    SnapshotProfile(&Own);
  Times.Snapshot = MonotonicNs();
  Reduction R(T, kMpiMaxPiece);
  // The own image's bytes: the sections after it are the ones received.
  uptr OwnSize = R.Start(Rank, Contribute ? &Own : nullptr) ? R.Image.Size : 0;
  Own.Release();
  bool Sent = R.RunTree(Rank, Size);
  Times.Exchange = MonotonicNs();
  if (Rank == 0)
    return FinishRoot(R, Size, OwnSize, Times);
  if (OwnSize && flags()->mpi_rank_files)
    WriteProfileImage(R.Image.Data, OwnSize, /*Job=*/false);
  return Sent && OwnSize;
}

} // namespace

} // namespace __activetime

using namespace __activetime;

extern "C" int __activetime_mpi_reduce_wanted(void) {
  EnsureInit();
  const Flags &F = *flags();
  return F.mpi_reduce && F.write_profile && ProcessIsOurs() &&
         !ProfileHandedOff();
}

extern "C" int
__activetime_mpi_reduce(u32 Rank, u32 Size, int Contribute,
                        const activetime::abi::MpiTransport *T) {
  if (!T || Size < 2 || Rank >= Size)
    return -1;
  bool HandedOff = ReduceJobProfile(Rank, Size, Contribute, T);
  if (HandedOff)
    HandOffProfile();
  return HandedOff ? 0 : -1;
}
