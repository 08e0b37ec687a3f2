//===- activetime_writer.cpp - Raw profile writer ---------------*- C++ -*-===//
//
// The file's framing: its header, each section's header (size and
// checksum), and the collectors' sections in table order
// (activetime_collector.h). The payloads are written beside their data.
//
//===----------------------------------------------------------------------===//

#include "activetime_writer.h"

#include "activetime/raw_format.h"
#include "activetime_checksum.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_module.h"
#include "activetime_output.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "sanitizer_common/sanitizer_mutex.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>

namespace __activetime {

namespace raw = activetime::raw;

// The file grows by a quarter of its size with its blocks allocated now: a
// full disk or a file-size limit is an error here, never a SIGBUS at a
// store into the mapping. The mapping moves without copying anything: its
// pages are the file's. Returns the errno of a failure, 0 on success.
int OutBuffer::GrowFile(uptr NewCap) {
  if (fallocate(Fd, 0, (off_t)Cap, (off_t)(NewCap - Cap)) != 0)
    return errno ? errno : EIO;
  uptr M = Data ? internal_mremap(Data, Cap, NewCap, MREMAP_MAYMOVE, nullptr)
                : internal_mmap(nullptr, NewCap, PROT_READ | PROT_WRITE,
                                MAP_SHARED, Fd, 0);
  int Err = 0;
  if (internal_iserror(M, &Err))
    return Err ? Err : ENOMEM;
  Data = (char *)M;
  Cap = NewCap;
  return 0;
}

// The image has outgrown memory (kStreamFrom): it moves into the attached
// file, and is streamed from here on. Where the file cannot take it, it
// stays in memory (FileError says why).
void OutBuffer::StreamToFile(uptr N) {
  char *Mem = Data;
  uptr MemCap = Cap;
  Fd = PendingFd;
  PendingFd = -1;
  Data = nullptr;
  Cap = 0;
  uptr PS = GetPageSizeCached();
  if (int Err = GrowFile(RoundUpTo(Max(Size + N, MemCap), PS))) {
    Fd = -1;
    Data = Mem;
    Cap = MemCap;
    FileError = Err;
    return;
  }
  internal_memcpy(Data, Mem, Size);
  UnmapOrDie(Mem, MemCap);
  TrimmedAt = 0;
  MaybeTrim();
}

void OutBuffer::Reserve(uptr N) {
  if (Size + N <= Cap)
    return;
  if (PendingFd >= 0 && Size + N > kStreamFrom)
    StreamToFile(N);
  if (Size + N <= Cap)
    return;
  if (Fd >= 0) {
    uptr PS = GetPageSizeCached();
    uptr NewCap = RoundUpTo(Max(Size + N, Cap + Max(Cap / 4, kStreamFrom)), PS);
    if (int Err = GrowFile(NewCap))
      SpillToMemory(NewCap, Err);
    return;
  }
  uptr NewCap = Cap ? Cap : 1 << 16;
  while (NewCap < Size + N)
    NewCap *= 2;
  MoveToMemory(NewCap);
}

// A new anonymous buffer of NewCap bytes holding the image so far, the old
// one (memory, or the file's mapping) unmapped.
void OutBuffer::MoveToMemory(uptr NewCap) {
  char *D = (char *)MmapOrDie(NewCap, "ActiveTime profile buffer");
  if (Size)
    internal_memcpy(D, Data, Size);
  Unmap();
  Data = D;
  Cap = NewCap;
}

void OutBuffer::Unmap() {
  if (Data && Fd >= 0)
    internal_munmap(Data, Cap);
  else if (Data)
    UnmapOrDie(Data, Cap);
}

// The file could not grow: the image goes on in memory, as it would have
// without a file, and the caller writes it the old way (which tries the
// fallback places and names the error).
void OutBuffer::SpillToMemory(uptr NewCap, int Err) {
  MoveToMemory(RoundUpTo(Max<uptr>(NewCap, 1 << 16), GetPageSizeCached()));
  Fd = -1;
  FileError = Err;
}

void OutBuffer::AttachFile(int FileFd) {
  CHECK_EQ(Data, nullptr);
  PendingFd = FileFd;
}

void OutBuffer::AttachSide(OutBuffer *Side) const {
  if (SideFd >= 0 && !internal_iserror(internal_ftruncate(SideFd, 0)))
    Side->AttachFile(SideFd);
}

void OutBuffer::Drop(uptr From, uptr To) {
  uptr PS = GetPageSizeCached();
  From = RoundDownTo(From, PS);
  To = Min(RoundUpTo(To, PS), Cap);
  // Shared file pages: dropping them loses nothing, written or not (dirty
  // ones stay in the page cache until written back).
  if (Fd >= 0 && From < To)
    internal_madvise((uptr)Data + From, To - From, MADV_DONTNEED);
}

void OutBuffer::Append(const void *P, uptr N) {
  Reserve(N);
  if (P)
    internal_memcpy(Data + Size, P, N);
  else
    internal_memset(Data + Size, 0, N);
  Size += N;
  MaybeTrim();
}

void OutBuffer::AppendZeros(uptr N) {
  if (N)
    Append(nullptr, N);
}

void OutBuffer::Release() {
  Unmap();
  Data = nullptr;
  Size = Cap = TrimmedAt = 0;
}

uptr ProfileWriter::BeginSection(u32 Kind) {
  uptr Off = Out->Size;
  raw::SectionHeader SH = {0, Kind, 0};
  Out->Append(&SH, sizeof(SH));
  return Off;
}

// The payload is complete here (every later patch is to the file header):
// its size, then the checksum over Kind, Size and the payload.
void ProfileWriter::EndSection(uptr Off) {
  Out->PadTo8();
  raw::SectionHeader *SH = (raw::SectionHeader *)(Out->Data + Off);
  SH->Size = Out->Size - Off - sizeof(raw::SectionHeader);
  // Hashed a few megabytes at a time: a streamed section is read back from
  // the page cache and dropped again as it goes.
  ChecksumState CS;
  ChecksumBegin(&CS);
  for (uptr P = Off + raw::kSectionChecksumFrom; P < Out->Size;) {
    uptr N = Min(Out->Size - P, OutBuffer::kTrimBytes);
    ChecksumUpdate(&CS, Out->Data + P, N);
    Out->Drop(P, P + N);
    P += N;
  }
  SH = (raw::SectionHeader *)(Out->Data + Off);
  SH->Checksum = (u32)ChecksumEnd(&CS);
  Out->Drop(Off, Out->Size);
  Out->TrimmedAt = Out->Size;
  ++NumSections;
}

namespace {
// The per-thread node maps a collector's sections translate through
// (ProfileWriter::NodeMaps); the thread sections fill them.
struct NodeMapStore {
  uptr MapsBytes = 0, SizesBytes = 0;

  void Allocate(ProfileWriter &W) {
    uptr PS = GetPageSizeCached();
    MapsBytes = RoundUpTo(W.NumOrdinals * sizeof(u32 *), PS);
    SizesBytes = RoundUpTo(W.NumOrdinals * sizeof(u32), PS);
    W.NodeMaps = (u32 **)MmapOrDie(MapsBytes, "ActiveTime writer maps");
    W.NodeMapSizes = (u32 *)MmapOrDie(SizesBytes, "ActiveTime writer maps");
    W.SectionOf = (u32 *)MmapOrDie(SizesBytes, "ActiveTime writer maps");
    internal_memset(W.SectionOf, 0xff, SizesBytes); // kMapDrop
  }
  void Release(ProfileWriter &W) {
    if (!W.NodeMaps)
      return;
    for (u32 I = 0; I < W.NumOrdinals; ++I)
      if (W.NodeMaps[I])
        UnmapOrDie(W.NodeMaps[I],
                   RoundUpTo(uptr(W.NodeMapSizes[I]) * sizeof(u32),
                             GetPageSizeCached()));
    UnmapOrDie(W.NodeMaps, MapsBytes);
    UnmapOrDie(W.NodeMapSizes, SizesBytes);
    UnmapOrDie(W.SectionOf, SizesBytes);
  }
};

// The sections after the header, in table order.
void WriteSections(ProfileWriter &W) {
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next)
    ++W.NumThreads;
  W.NumOrdinals = NumThreadOrdinals();
  W.ExeLen = ReadBinaryName(W.Exe, sizeof(W.Exe));
  if (W.ExeLen >= sizeof(W.Exe))
    W.ExeLen = 0;
  bool KeepNodeMaps = false;
  const Collector *Cs[kMaxCollectors];
  for (u32 I = 0, N = CollectorsInOrder(Cs); I < N; ++I)
    if (Cs[I]->PrepareWrite)
      KeepNodeMaps |= Cs[I]->PrepareWrite(W);
  NodeMapStore Maps;
  if (KeepNodeMaps && W.NumOrdinals)
    Maps.Allocate(W);
  CallCollectors(&Collector::WriteSections, W);
  Maps.Release(W);
}
} // namespace

void SerializeProfile(OutBuffer *B, u64 TickRate, u64 EndTick) {
  // The writing thread's rings up to EndTick are consumed now (its probe
  // state is held busy by WriteProfile); other live threads' records are
  // theirs to consume: their figures are as of their last probe. Before the
  // locks: draining code samples takes the loader's lock, which must never
  // be waited for while holding the registry.
  ThreadTls &Self = at_tls;
  if (Self.TS && !Self.Dead && Self.Capacity && Self.SwitchHead)
    PollSlow(Self, EndTick);

  LockModules();
  LockThreadRegistry();
  BuildFuncIdIndex();

  // A placeholder: the header counts what follows.
  B->AppendZeros(sizeof(raw::FileHeader));
  ProfileWriter W;
  internal_memset(&W, 0, sizeof(W));
  W.Out = B;
  W.TickRate = TickRate;
  W.EndTick = EndTick;
  WriteSections(W);

  UnlockThreadRegistry();
  UnlockModules();

  FillFileHeader((raw::FileHeader *)B->Data, B->Size, W.NumSections, 0);
}

void FillFileHeader(raw::FileHeader *H, u64 FileSize, u32 NumSections,
                    u32 Flags) {
  internal_memset(H, 0, sizeof(*H));
  internal_memcpy(H->Magic, raw::kMagic, sizeof(H->Magic));
  H->Version = raw::kVersion;
  H->HeaderSize = sizeof(raw::FileHeader);
  H->FileSize = FileSize;
  H->NumSections = NumSections;
  H->Flags = Flags;
  H->Checksum = Checksum64(H, raw::kFileHeaderChecksummed);
}

namespace {
Mutex write_mu;

// One write's hold on the calling thread (from a signal handler too): its
// probe state busy (odd Seq: probes from signal handlers must not change
// our stack now) and the program's errno left as it was.
class WriterScope {
public:
  WriterScope() : T(at_tls), SavedErrno(errno), SavedSeq(T.Seq) {
    RestoreSeq = (SavedSeq & 1) ? SavedSeq : SavedSeq + 2;
    T.Seq = SavedSeq | 1;
    AT_BARRIER();
  }
  ~WriterScope() {
    AT_BARRIER();
    T.Seq = RestoreSeq;
    errno = SavedErrno;
  }

private:
  ThreadTls &T;
  int SavedErrno;
  u32 SavedSeq, RestoreSeq;
};

// The profile ends now; a short run's calibration spin comes after it and
// must not show up as wall time. Without timing (block counts only) the
// rate converts the wall time alone: measured over the whole run, with no
// spin for a short one.
void EndProfileNow(u64 *EndTick, u64 *Rate) {
  *EndTick = ReadTick();
  bool Timing = atomic_load(&runtime.TimingInitialized, memory_order_acquire);
  *Rate = CalibrateTickRate(Timing ? flags()->min_calibration_ms : 0);
}
} // namespace

void LockProfileWrites() { write_mu.Lock(); }
void UnlockProfileWrites() { write_mu.Unlock(); }

bool WriteProfile() {
  Lock WriteLock(&write_mu);
  WriterScope Scope;
  u64 EndTick, Rate;
  EndProfileNow(&EndTick, &Rate);
  OutBuffer B = {nullptr, 0, 0};
  // Static, as writes are one at a time: 8 KiB of paths is too much for a
  // signal handler's stack.
  static ProfileFile F;
  F = ProfileFile();
  if (BeginProfileFile(&F)) {
    B.AttachFile(F.Fd);
    B.SideFd = F.ScratchFd;
  }
  SerializeProfile(&B, Rate, EndTick);
  bool Ok;
  if (B.Fd >= 0) {
    uptr Size = B.Size;
    B.Release();
    Ok = CommitProfileFile(&F, Size);
  } else {
    // Small (never streamed), or the file could not grow (B.FileError):
    // the image is in memory.
    Ok = CommitProfileImage(&F, B.Data, B.Size);
    B.Release();
  }
  if (Ok)
    CountProfileWrite();
  return Ok;
}

void SnapshotProfile(OutBuffer *B) {
  Lock WriteLock(&write_mu);
  WriterScope Scope;
  u64 EndTick, Rate;
  EndProfileNow(&EndTick, &Rate);
  SerializeProfile(B, Rate, EndTick);
}

bool WriteProfileImage(const char *Data, uptr Size, bool Job) {
  Lock WriteLock(&write_mu);
  WriterScope Scope;
  bool Ok = WriteProfileOutput(Data, Size, Job);
  // The job's file is not one of the process's own profiles (%n).
  if (Ok && !Job)
    CountProfileWrite();
  return Ok;
}

bool ProfileHandedOff() {
  return __atomic_load_n(&runtime.ProfileHandedOff, __ATOMIC_ACQUIRE);
}

void HandOffProfile() {
  __atomic_store_n(&runtime.ProfileHandedOff, true, __ATOMIC_RELEASE);
}

} // namespace __activetime
