//===- activetime_writer.cpp - Raw profile writer ---------------*- C++ -*-===//

#include "activetime_writer.h"

#include "activetime/raw_format.h"
#include "activetime_checksum.h"
#include "activetime_counts.h"
#include "activetime_flags.h"
#include "activetime_module.h"
#include "activetime_strides.h"
#include "activetime_ompt.h"
#include "activetime_output.h"
#include "activetime_sampler.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"
#include "sanitizer_common/sanitizer_mutex.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>

namespace __activetime {

namespace raw = activetime::raw;

void OutBuffer::Reserve(uptr N) {
  if (Size + N <= Cap)
    return;
  uptr NewCap = Cap ? Cap : 1 << 16;
  while (NewCap < Size + N)
    NewCap *= 2;
  char *D = (char *)MmapOrDie(NewCap, "ActiveTime profile buffer");
  if (Size)
    internal_memcpy(D, Data, Size);
  if (Data)
    UnmapOrDie(Data, Cap);
  Data = D;
  Cap = NewCap;
}

void OutBuffer::Append(const void *P, uptr N) {
  Reserve(N);
  if (P)
    internal_memcpy(Data + Size, P, N);
  else
    internal_memset(Data + Size, 0, N);
  Size += N;
}

void OutBuffer::AppendZeros(uptr N) {
  if (N)
    Append(nullptr, N);
}

void OutBuffer::Release() {
  if (Data)
    UnmapOrDie(Data, Cap);
  Data = nullptr;
  Size = Cap = 0;
}

namespace {

// ---- main executable's GNU build-id -----------------------------------------
struct BuildIdResult {
  u8 *Buf;
  uptr Cap;
  uptr Len;
};

int BuildIdCallback(struct dl_phdr_info *Info, size_t, void *Arg) {
  BuildIdResult *R = (BuildIdResult *)Arg;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE)
      continue;
    const char *Note = (const char *)(Info->dlpi_addr + P.p_vaddr);
    const char *End = Note + P.p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const ElfW(Nhdr) *N = (const ElfW(Nhdr) *)Note;
      const char *Name = Note + sizeof(ElfW(Nhdr));
      const char *Desc = Name + RoundUpTo(N->n_namesz, 4);
      const char *Next = Desc + RoundUpTo(N->n_descsz, 4);
      if (Next > End)
        break;
      if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
          internal_memcmp(Name, "GNU", 4) == 0) {
        R->Len = Min<uptr>(N->n_descsz, R->Cap);
        internal_memcpy(R->Buf, Desc, R->Len);
        return 1;
      }
      Note = Next;
    }
  }
  return 1; // only the first object (the main executable)
}

uptr MainBuildId(u8 *Buf, uptr Cap) {
  BuildIdResult R = {Buf, Cap, 0};
  dl_iterate_phdr(BuildIdCallback, &R);
  return R.Len;
}

uptr Len32(const char *S) { return S ? internal_strlen(S) : 0; }

// Appends a section header placeholder; returns its offset.
uptr BeginSection(OutBuffer *B, u32 Kind) {
  uptr Off = B->Size;
  raw::SectionHeader SH = {0, Kind, 0};
  B->Append(&SH, sizeof(SH));
  return Off;
}

// The payload is complete here (every later patch is to the file header):
// its size, then the checksum over Kind, Size and the payload.
void EndSection(OutBuffer *B, uptr Off) {
  B->PadTo8();
  raw::SectionHeader *SH = (raw::SectionHeader *)(B->Data + Off);
  SH->Size = B->Size - Off - sizeof(raw::SectionHeader);
  uptr From = Off + raw::kSectionChecksumFrom;
  SH->Checksum = (u32)Checksum64(B->Data + From, B->Size - From);
}

static void WriteFuncRecords(OutBuffer *B, const FuncDesc *Funcs, u32 N) {
  for (u32 I = 0; I < N; ++I) {
    const FuncDesc &F = Funcs[I];
    raw::FuncRecord FR;
    FR.Addr = uptr(F.Addr);
    FR.Line = F.Line;
    FR.Flags = F.Flags;
    FR.NameLen = Len32(F.Name);
    FR.FileLen = Len32(F.File);
    B->Append(&FR, sizeof(FR));
    B->Append(F.Name, FR.NameLen);
    B->Append(F.File, FR.FileLen);
  }
}

void WriteModule(OutBuffer *B, const ModuleInfo *MI) {
  raw::ModuleRecord R;
  internal_memset(&R, 0, sizeof(R));
  R.Hash = MI->Hash;
  R.LoadBase = MI->LoadBase;
  R.NumFuncs = MI->NumFuncs;
  R.NameLen = Len32(MI->Name);
  R.PathLen = Len32(MI->Path);
  R.Flags = MI->Unloaded ? raw::MF_Unloaded : 0;
  R.NumInlinedAway = MI->NumInlinedAway;
  B->Append(&R, sizeof(R));
  B->Append(MI->Name, R.NameLen);
  B->Append(MI->Path, R.PathLen);
  WriteFuncRecords(B, MI->Funcs, MI->NumFuncs);
  WriteFuncRecords(B, MI->InlinedAway, MI->NumInlinedAway);
}

// SK_Strides payload of one module: its site table with the figures merged
// over every thread.
void WriteStrides(OutBuffer *B, u32 ModIdx, const ModuleInfo *MI) {
  raw::StridesRecord R;
  internal_memset(&R, 0, sizeof(R));
  R.Module = ModIdx;
  R.NumSites = MI->NumSites;
  B->Append(&R, sizeof(R));
  uptr Bytes = RoundUpTo(MI->NumSites * sizeof(SiteStats), GetPageSizeCached());
  SiteStats *St = (SiteStats *)MmapOrDie(Bytes, "ActiveTime stride merge");
  CollectSiteStats(MI->SiteBase, MI->NumSites, St, !MI->Unloaded);
  for (u32 I = 0; I < MI->NumSites; ++I) {
    const MemSiteDesc &D = MI->Sites[I];
    const SiteStats &S = St[I];
    raw::SiteRecord SR;
    internal_memset(&SR, 0, sizeof(SR));
    SR.Hash = D.Hash;
    SR.StaticStride = D.StaticStride;
    SR.Line = D.Line;
    SR.Column = D.Column;
    SR.AccessSize = D.AccessSize;
    SR.Flags = D.Flags;
    SR.LoopLine = D.LoopLine;
    SR.LoopDepth = D.LoopDepth;
    SR.Executions = S.Executions;
    SR.Observations = S.Observations;
    SR.Differences = S.Differences;
    SR.Adjacent = S.Adjacent;
    SR.ZeroDiffs = S.ZeroDiffs;
    SR.Gcd = S.Gcd;
    SR.Dominant = S.CandCount ? S.Cand : 0;
    SR.DominantCount = S.CandCount;
    SR.IterTicks = S.IterTicks;
    SR.ProbeTicks = S.ProbeTicks;
    SR.MinStepTicks = S.MinStepPlus1 ? S.MinStepPlus1 - 1 : 0;
    SR.FuncLen = Len32(D.Func);
    SR.FileLen = Len32(D.File);
    SR.CopyGroup = D.CopyGroup;
    SR.CopyOffset = D.CopyOffset;
    B->Append(&SR, sizeof(SR));
    B->Append(D.Func, SR.FuncLen);
    B->Append(D.File, SR.FileLen);
  }
  UnmapOrDie(St, Bytes);
}

constexpr u32 kMapRoot = 0xfffffffeu;
constexpr u32 kMapDrop = 0xffffffffu;

// Reads the state of a thread that may be running its probes while the
// profile is written: each copy is made under the thread's seqlock
// (ThreadTls::Seq), so it is as of one probe boundary. Unguarded, a node
// read in the middle of CloseFrame can have its call counted but not its
// time, or Excl updated but not Incl, which the reader rightly rejects as a
// corrupt profile. Under TSan the reads are ignored: racy by design,
// validated by Seq.
struct LiveReader {
  const ThreadTls *T; // null: the thread cannot run probes now
  bool Parked;
  // Runs Read (copies of the thread's state) until it ran between two of
  // the thread's probes.
  template <class F> void Run(F Read);
  void Copy(void *Dst, const void *Src, uptr Size) {
    Run([&] { internal_memcpy(Dst, Src, Size); });
  }
};
constexpr int kLiveCopyTries = 100;

template <class F> void LiveReader::Run(F Read) {
  for (int Try = 0; T && !Parked && Try < kLiveCopyTries; ++Try) {
    AT_TSAN_IGNORE_READS_BEGIN();
    u32 S = __atomic_load_n(&T->Seq, __ATOMIC_ACQUIRE);
    bool Ok = false;
    if (!(S & 1)) {
      Read();
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      Ok = __atomic_load_n(&T->Seq, __ATOMIC_RELAXED) == S;
    }
    AT_TSAN_IGNORE_READS_END();
    if (Ok)
      return;
    internal_sched_yield(); // inside a probe: a few instructions, or preempted
  }
  // Still inside the runtime after that many yields: it waits for a lock we
  // hold (it is finishing, or writing a profile itself), so its state does
  // not change until we are done.
  if (T)
    Parked = true;
  AT_TSAN_IGNORE_READS_BEGIN();
  Read();
  AT_TSAN_IGNORE_READS_END();
}

// The thread's calls by function id, from its counter arrays (a live
// thread may be one call ahead; aligned words are never torn). Returns the
// number of records.
u32 WriteCounts(OutBuffer *B, const ThreadState *TS) {
  u32 Num = 0;
  for (uptr M = 0; M < NumModules(); ++M) {
    const ModuleInfo *MI = GetModule(M);
    const u64 *C = ThreadCounters(TS, MI);
    for (u32 I = 0; C && I < MI->NumFuncs; ++I) {
      AT_TSAN_IGNORE_READS_BEGIN();
      u64 V = __atomic_load_n(&C[I], __ATOMIC_RELAXED);
      AT_TSAN_IGNORE_READS_END();
      u64 Calls = V & ~activetime::abi::kCountedBit;
      if (!Calls)
        continue;
      raw::CountRecord R = {MI->FirstId + I,
                            (V & activetime::abi::kCountedBit) ? raw::CR_Counted : 0,
                            Calls};
      B->Append(&R, sizeof(R));
      ++Num;
    }
  }
  return Num;
}

// The thread's code samples with their nodes mapped to written nodes (no
// frame, or a node not written: kNoNode). A live thread may be adding to
// its table: the counts read are as of some instant per slot.
u32 WriteCodeSamples(OutBuffer *B, const ThreadState *TS, const u32 *Map,
                     u32 NumTreeNodes) {
  const CodeSampleState &S = TS->Code;
  AT_TSAN_IGNORE_READS_BEGIN();
  CodeSampleSlot *Slots = *(CodeSampleSlot *volatile *)&S.Slots;
  uptr N = Slots ? *(volatile uptr *)&S.Mask + 1 : 0;
  AT_TSAN_IGNORE_READS_END();
  u32 Num = 0;
  for (uptr I = 0; I < N; ++I) {
    AT_TSAN_IGNORE_READS_BEGIN();
    u64 Count = __atomic_load_n(&Slots[I].Count, __ATOMIC_ACQUIRE);
    CodeSampleSlot E = Slots[I];
    AT_TSAN_IGNORE_READS_END();
    if (!Count)
      continue;
    raw::CodeSampleRecord R;
    u32 Mapped = E.Node < NumTreeNodes ? Map[E.Node] : kMapDrop;
    R.Node = Mapped >= kMapRoot ? raw::kNoNode : Mapped;
    R.Flags = E.Flags;
    R.Addr = E.Addr;
    R.Count = Count;
    R.Caller = E.Caller;
    B->Append(&R, sizeof(R));
    ++Num;
  }
  return Num;
}

raw::NodeRecord NodeRecordOf(const Node &X, u32 Parent, u32 Func) {
  raw::NodeRecord R;
  R.Parent = Parent == kMapRoot ? raw::kNoParent : Parent;
  R.Func = Func;
  R.Calls = X.Calls;
  R.InclTicks = X.Incl;
  R.ExclTicks = X.Excl;
  // Only sampled calls so far (CloseFrame): the minimum, taken at their
  // upper end, can pass the maximum, taken at their lower end: both are
  // then the latter, the calls' figure with the interrupts' estimate out.
  R.MinTicks = X.Calls ? (X.Min < X.Max ? X.Min : X.Max) : 0;
  R.MaxTicks = X.Max;
  R.OverheadTicks = X.Ovh256; // fixed point until the open frames are in
  R.OffCpuTicks = X.Off;
  R.VoluntarySwitches = X.Vol;
  R.InvoluntarySwitches = X.Invol;
  R.CallSite = X.Site;
  return R;
}

// A node's non-empty latency buckets (Hist, the groups in Mask: see
// CallTree::CopyLatency) as records of written node Out, appended to Lat.
void AppendLatency(OutBuffer *Lat, u32 Out, const u64 *Hist, u32 Mask) {
  for (; Mask; Mask &= Mask - 1) {
    u32 First = u32(__builtin_ctz(Mask)) * CallTree::kLatGroupBuckets;
    for (u32 Bk = First; Bk < First + CallTree::kLatGroupBuckets; ++Bk)
      if (Hist[Bk]) {
        raw::LatencyRecord R = {Out, Bk, Hist[Bk]};
        Lat->Append(&R, sizeof(R));
      }
  }
}

// The call-tree nodes 1..N-1 whose function and ancestors are known, in
// tree order; Map[I] becomes node I's written index, kMapRoot (the root)
// or kMapDrop. Returns how many were written; *Dropped counts the calls of
// those left out. A node's latency histogram is copied with it (one probe
// boundary: its counts sum to the copy's calls) into Lat, when Lat is set.
u32 WriteNodes(OutBuffer *B, CallTree &Tree, u32 N, LiveReader &Live,
               u32 *Map, u64 *Dropped, OutBuffer *Lat, u64 *Hist) {
  Map[0] = kMapRoot;
  u32 Out = 0;
  for (u32 I = 1; I < N; ++I) {
    const Node *X = Tree.AtAcquire(I);
    Node Copy;
    u32 HistMask = 0;
    auto Read = [&] {
      internal_memcpy(&Copy, X, sizeof(Copy));
      HistMask = Lat ? Tree.CopyLatency(Copy, Hist) : 0;
    };
    if (Live.T)
      Live.Run(Read);
    else
      Read();
    X = &Copy;
    u32 P = X->Parent < I ? Map[X->Parent] : kMapDrop;
    u32 Id;
    if (P == kMapDrop || !LookupFuncId(X->Fn, &Id)) {
      Map[I] = kMapDrop;
      *Dropped += X->Calls ? X->Calls : 1;
      continue;
    }
    raw::NodeRecord R = NodeRecordOf(*X, P, Id);
    B->Append(&R, sizeof(R));
    if (HistMask)
      AppendLatency(Lat, Out, Hist, HistMask);
    Map[I] = Out++;
  }
  return Out;
}

static bool LatencyLess(const raw::LatencyRecord &A,
                        const raw::LatencyRecord &B) {
  return A.Node != B.Node ? A.Node < B.Node : A.Bucket < B.Bucket;
}

// Appends the thread's latency records (Lat: the nodes' in order, then one
// per open frame) to B, sorted by (node, bucket) with equal ones added up.
// Returns their number.
u32 WriteLatency(OutBuffer *B, OutBuffer *Lat, bool Unsorted) {
  raw::LatencyRecord *R = (raw::LatencyRecord *)Lat->Data;
  uptr Num = Lat->Size / sizeof(raw::LatencyRecord);
  if (Unsorted)
    Sort(R, Num, LatencyLess);
  u32 Out = 0;
  for (uptr I = 0; I < Num;) {
    raw::LatencyRecord Sum = R[I];
    for (++I; I < Num && R[I].Node == Sum.Node && R[I].Bucket == Sum.Bucket;
         ++I)
      Sum.Count += R[I].Count;
    B->Append(&Sum, sizeof(Sum));
    ++Out;
  }
  return Out;
}

// A thread's probe-time counters: probe overhead (ticks * 256), off-CPU
// ticks, switches (voluntary << 32 | involuntary).
struct ThreadCounters {
  u64 Ovh, Off, Sw;
};

// T's counters as of one probe boundary, with another live thread's
// switched-out time since then up to EndTick; a finished thread's final ones.
ThreadCounters ReadThreadCounters(const ThreadState *TS, const ThreadTls *T,
                                  LiveReader &Live, u64 EndTick) {
  if (!T)
    return {0, TS->FinalOff, TS->FinalSw};
  // Ovh, Off, Sw: consecutive, copied together (one probe boundary).
  static_assert(__builtin_offsetof(ThreadTls, Off) ==
                        __builtin_offsetof(ThreadTls, Ovh) + 8 &&
                    __builtin_offsetof(ThreadTls, Sw) ==
                        __builtin_offsetof(ThreadTls, Ovh) + 16,
                "ThreadTls counters layout");
  u64 C[3];
  SwitchSnapshot Snap;
  auto Read = [&] {
    internal_memcpy(C, &T->Ovh, sizeof(C));
    Snap = SnapshotSwitch(TS->Switch);
  };
  if (!Live.T) {
    Read();
    return {C[0], C[1], C[2]};
  }
  Live.Run(Read);
  // Another live thread: what it was switched out for since that probe
  // boundary is in no counter yet. A thread blocked now (waiting for work
  // or for the program to end) has been off CPU since it blocked, and its
  // open frames must not count that as active time.
  u64 Off, Sw;
  UnchargedSwitchedOut(TS, Snap, EndTick, &Off, &Sw);
  return {C[0], C[1] + Off, C[2] + Sw};
}

// Adds an open frame F, timed up to EndTick with its callees' El as
// Child, to its written node R: the same accounting as an exit at EndTick
// (there was no exit probe). El: the frame's elapsed ticks. Returns the
// call's active ticks (for its latency bucket).
u64 AddOpenFrame(raw::NodeRecord *R, const Frame &F, u64 El, u64 Child,
                  const ThreadCounters &C) {
  u64 Ovh = C.Ovh > F.OvhAtEntry ? C.Ovh - F.OvhAtEntry : 0;
  u64 Off = C.Off > F.OffAtEntry ? C.Off - F.OffAtEntry : 0;
  // A live thread's counters were read after EndTick: they can hold time
  // switched out after it, outside this frame's [start, EndTick].
  if (Off > El)
    Off = El;
  // A frame opened after the counters were read has nothing of its own.
  u64 Sw = C.Sw > F.SwAtEntry ? C.Sw - F.SwAtEntry : 0;
  R->Calls++;
  R->InclTicks += El;
  R->ExclTicks += El > Child ? El - Child : 0;
  R->OverheadTicks += Ovh;
  R->OffCpuTicks += Off;
  R->VoluntarySwitches += u32(Sw >> 32);
  R->InvoluntarySwitches += u32(Sw);
  s64 Act = s64(El) - s64((Ovh + 128) >> 8) - s64(Off);
  u64 A = Act > 0 ? u64(Act) : 0;
  if (R->Calls == 1 || A < R->MinTicks)
    R->MinTicks = A;
  if (A > R->MaxTicks)
    R->MaxTicks = A;
  return A;
}

// Accounts T's open frames up to EndTick in the written copy only (Recs,
// through Map over the N tree nodes). Another live thread may be running:
// best effort, bounded reads. Returns the number of frames added. Each
// adds a latency record of its node (in Lat, when set).
u64 AddOpenFrames(raw::NodeRecord *Recs, const u32 *Map, u32 N,
                  const ThreadTls *T, LiveReader &Live, u64 EndTick,
                  const ThreadCounters &C, OutBuffer *Lat) {
  AT_TSAN_IGNORE_READS_BEGIN();
  Frame *Stk = *(Frame *volatile *)&T->Stack;
  u32 Cap = *(volatile u32 *)&T->Capacity;
  u32 D = *(volatile u32 *)&T->Depth;
  AT_TSAN_IGNORE_READS_END();
  if (D > Cap)
    D = Cap;
  u64 Carry = 0, Open = 0;
  for (u32 I = D; Stk && I-- > 1;) {
    Frame F;
    if (Live.T)
      Live.Copy(&F, &Stk[I], sizeof(F));
    else
      F = Stk[I];
    u64 El = EndTick > F.StartTick ? EndTick - F.StartTick : 0;
    if (F.NodeIdx < N && Map[F.NodeIdx] < kMapRoot) {
      u32 Out = Map[F.NodeIdx];
      u64 A = AddOpenFrame(&Recs[Out], F, El, F.ChildTicks + Carry, C);
      if (Lat) {
        raw::LatencyRecord R = {Out, activetime::latency::bucketOf(A), 1};
        Lat->Append(&R, sizeof(R));
      }
      ++Open;
    }
    Carry = El;
  }
  return Open;
}

// The thread's CPU time over its profiled span: to its end, or to now for a
// live thread (the writer's own, or another read through its clock id).
u64 ThreadCpuSpan(const ThreadState *TS) {
  u64 End;
  if (TS->Finished)
    End = TS->FinalCpuNs;
  else if (TS->Tls == &at_tls)
    End = ThreadCpuNs();
  else if (!ThreadCpuNsOf(TS->Tid, &End))
    return raw::kCpuUnknown;
  return End >= TS->StartCpuNs ? End - TS->StartCpuNs : raw::kCpuUnknown;
}

// The thread record's fields other than NumNodes, OpenFrames and the
// dropped node count.
void FillThreadRecord(raw::ThreadRecord *P, const ThreadState *TS,
                      u64 ThreadEnd, const ThreadCounters &C) {
  P->Tid = TS->Tid;
  P->StartTick = TS->StartTick;
  P->EndTick = ThreadEnd;
  P->Flags = (TS->Finished ? 0 : raw::TF_Running) |
             (TS->Code.Refused ? raw::TF_NotSampled : 0) |
             (TS->Code.CostTicks ? raw::TF_SampledCallsApart : 0);
  P->UnmatchedExits = TS->UnmatchedExits;
  P->UnwoundFrames = TS->UnwoundFrames;
  internal_memcpy(P->Name, TS->Name, sizeof(P->Name));
  const SwitchState &S = TS->Switch;
  P->SwitchSource = S.Source;
  P->SwitchResolution = S.Source == raw::SS_CpuClock ? S.Resolution : 0;
  P->OffCpuTicks = C.Off;
  P->VoluntarySwitches = C.Sw >> 32;
  P->InvoluntarySwitches = u32(C.Sw);
  P->LostSwitchRecords = S.Lost;
  P->LostCodeSamples = TS->Code.Lost;
  P->CpuNs = ThreadCpuSpan(TS);
}

// SK_Thread payload: the thread record, its call-tree nodes (open frames
// timed up to EndTick), call counts and code samples. With MapOut, the
// tree-index -> written-node map is handed to the caller (the samples
// section needs it) instead of being freed.
void WriteThread(OutBuffer *B, ThreadState *TS, u64 EndTick, u32 **MapOut,
                 u32 *MapN) {
  raw::ThreadRecord TR;
  internal_memset(&TR, 0, sizeof(TR));
  uptr RecOff = B->Size;
  B->Append(&TR, sizeof(TR));
  uptr NodesOff = B->Size;

  CallTree &Tree = TS->Tree;
  u32 N = Tree.SizeAcquire();
  // Another thread that has not finished runs its probes while we read
  // (the writer's own thread is held busy by WriteProfile).
  LiveReader Live = {TS->Finished ? nullptr : TS->Tls, false};
  if (Live.T == &at_tls)
    Live.T = nullptr;
  uptr MapBytes = RoundUpTo(uptr(N) * sizeof(u32), GetPageSizeCached());
  u32 *Map = (u32 *)MmapOrDie(MapBytes, "ActiveTime writer map");
  u64 Dropped = 0;
  // latency=0: no histograms (the nodes point at a sink).
  OutBuffer LatBuf = {};
  OutBuffer *Lat = flags()->latency ? &LatBuf : nullptr;
  uptr HistBytes = RoundUpTo(CallTree::kLatGroups * CallTree::kLatGroupBuckets *
                                 sizeof(u64),
                             GetPageSizeCached());
  u64 *Hist = (u64 *)MmapOrDie(HistBytes, "ActiveTime writer histogram");
  u32 Out = WriteNodes(B, Tree, N, Live, Map, &Dropped, Lat, Hist);
  UnmapOrDie(Hist, HistBytes);

  ThreadTls *T = TS->Finished ? nullptr : TS->Tls;
  ThreadCounters C = ReadThreadCounters(TS, T, Live, EndTick);
  raw::NodeRecord *Recs = (raw::NodeRecord *)(B->Data + NodesOff);
  u64 Open = T ? AddOpenFrames(Recs, Map, N, T, Live, EndTick, C, Lat) : 0;
  for (u32 I = 0; I < Out; ++I)
    Recs[I].OverheadTicks = (Recs[I].OverheadTicks + 128) >> 8;
  u32 NumCounts = WriteCounts(B, TS);
  u32 NumCode = WriteCodeSamples(B, TS, Map, N);
  u32 NumLat = Lat ? WriteLatency(B, Lat, Open != 0) : 0;
  LatBuf.Release();
  if (MapOut) {
    *MapOut = Map;
    *MapN = N;
  } else {
    UnmapOrDie(Map, MapBytes);
  }

  raw::ThreadRecord *P = (raw::ThreadRecord *)(B->Data + RecOff);
  FillThreadRecord(P, TS, TS->Finished ? TS->EndTick : EndTick, C);
  P->NumNodes = Out;
  P->OpenFrames = Open;
  P->DroppedEvents = TS->DroppedEvents + Dropped;
  P->NumCounts = NumCounts;
  P->NumCodeSamples = NumCode;
  P->NumLatency = NumLat;
  if (Lat)
    P->Flags |= raw::TF_Latency;
}

bool HasTrace(const ThreadState *TS) {
  return TS->Trace.Events || TS->Trace.Switches;
}

// SK_Trace payload of one thread (mode=trace).
void WriteTrace(OutBuffer *B, ThreadState *TS) {
  const TraceBuffers &TB = TS->Trace;
  u64 NE = __atomic_load_n(&TB.NumEvents, __ATOMIC_ACQUIRE);
  u64 NS = __atomic_load_n(&TB.NumSwitches, __ATOMIC_ACQUIRE);
  if (NE > TB.CapEvents)
    NE = TB.CapEvents;
  if (NS > TB.CapSwitches)
    NS = TB.CapSwitches;
  raw::TraceRecord TR;
  TR.Tid = TS->Tid;
  TR.NumEvents = NE;
  TR.NumSwitches = NS;
  TR.DroppedEvents = TB.DroppedEvents;
  TR.DroppedSwitches = TB.DroppedSwitches;
  TR.BufferTicks = __atomic_load_n(&TB.BufferTicks, __ATOMIC_RELAXED);
  TR.BufferBytes = __atomic_load_n(&TB.BufferBytes, __ATOMIC_RELAXED);
  TR.BufferFlags = __atomic_load_n(&TB.BufferFlags, __ATOMIC_RELAXED);
  TR.Reserved = 0;
  B->Reserve(sizeof(TR) + (NE + NS) * sizeof(raw::TraceEvent));
  uptr RecOff = B->Size;
  B->Append(&TR, sizeof(TR));
  // Consecutive events mostly repeat functions: cache the last lookup.
  const FuncDesc *LastFn = nullptr;
  u32 LastId = 0;
  bool LastKnown = false;
  u64 Written = 0;
  for (u64 I = 0; I < NE; ++I) {
    TraceEv E = TB.Events[I];
    const FuncDesc *Fn = (const FuncDesc *)(E.FnKind & ~uptr(1));
    if (Fn != LastFn) {
      LastFn = Fn;
      LastKnown = LookupFuncId(Fn, &LastId);
    }
    // A function of no registered module has no id a reader could resolve:
    // the event is dropped and counted, like the call-tree nodes.
    if (!LastKnown)
      continue;
    ++Written;
    raw::TraceEvent R;
    R.Tick = E.Tick;
    R.Func = LastId;
    R.Kind = (E.FnKind & 1) ? raw::TE_Exit : raw::TE_Enter;
    R.Measured = E.Measured < 0xffffffffull ? u32(E.Measured) : 0xffffffffu;
    R.Reserved = 0;
    B->Append(&R, sizeof(R));
  }
  if (Written != NE) {
    raw::TraceRecord *P = (raw::TraceRecord *)(B->Data + RecOff);
    P->NumEvents = Written;
    P->DroppedEvents += NE - Written;
  }
  for (u64 I = 0; I < NS; ++I) {
    TraceSw E = TB.Switches[I];
    raw::SwitchEvent R;
    R.Tick = E.Tick;
    R.OldTid = E.Out ? TS->Tid : 0;
    R.NewTid = E.Out ? 0 : TS->Tid;
    B->Append(&R, sizeof(R));
  }
}

// SK_Samples: the sampler's records with registry ordinals and tree indices
// translated to thread-section indices and written node indices. A sample
// of a node the thread section dropped (function of an unregistered module)
// or of a thread/node newer than the sections (mid-run write) is counted
// as unmapped and left out.
void WriteSamples(OutBuffer *B, const SamplerView &SV, u32 NumThreads,
                  u32 **Maps, const u32 *MapNs) {
  uptr Off = BeginSection(B, raw::SK_Samples);
  uptr HdrOff = B->Size;
  B->Append(&SV.Header, sizeof(SV.Header));
  u64 Kept = 0, Unmapped = 0;
  for (u64 I = 0; I < SV.NumSamples; ++I) {
    raw::SampleRecord R = SV.Samples[I];
    if (R.Thread >= NumThreads || R.Node >= MapNs[R.Thread]) {
      ++Unmapped;
      continue;
    }
    u32 M = Maps[R.Thread][R.Node];
    if (M == kMapDrop) {
      ++Unmapped;
      continue;
    }
    R.Node = M == kMapRoot ? raw::kNoNode : M;
    B->Append(&R, sizeof(R));
    ++Kept;
  }
  raw::SamplesRecord *H = (raw::SamplesRecord *)(B->Data + HdrOff);
  H->NumSamples = Kept;
  H->Unmapped = Unmapped;
  EndSection(B, Off);
}

} // namespace

// The distinct regions (fork call return addresses) of every thread's
// slots, in first-seen order, at most Max; *Lost counts slots beyond that.
u32 CollectRegionCodes(uptr *Codes, u32 Max, u64 *Lost) {
  u32 NumRegions = 0;
  for (OmptThread *T = OmptThreadList(); T; T = T->Next)
    for (u32 I = 0; I < T->NumSlots; ++I) {
      u32 R = 0;
      while (R < NumRegions && Codes[R] != T->Slots[I].CodePtr)
        ++R;
      if (R == NumRegions) {
        if (NumRegions == Max) {
          ++*Lost;
          continue;
        }
        Codes[NumRegions++] = T->Slots[I].CodePtr;
      }
    }
  return NumRegions;
}

// A region's address in its object (minus the load bias) and the object's
// path, appended to Paths (the main executable: Exe).
void LocateRegion(raw::RegionRecord &RR, uptr Code, const char *Exe,
                  uptr ExeLen, InternalScopedString &Paths) {
  internal_memset(&RR, 0, sizeof(RR));
  Dl_info Info;
  struct link_map *LM = nullptr;
  const char *Path = "";
  uptr PathLen = 0;
  RR.Address = Code;
  if (Code && dladdr1((void *)Code, &Info, (void **)&LM, RTLD_DL_LINKMAP) && LM) {
    RR.Address = Code - LM->l_addr;
    Path = LM->l_name;
    PathLen = internal_strlen(Path);
    if (!PathLen) { // the main executable
      Path = Exe;
      PathLen = ExeLen;
    }
  }
  RR.PathOffset = (u32)Paths.length();
  RR.PathLen = (u32)PathLen;
  Paths.AppendF("%.*s", (int)PathLen, Path);
}

// Calls Fn(T, Slot index, region index) for every thread's slot of a
// collected region, in thread and slot order.
template <typename F>
void ForEachRegionSlot(const uptr *Codes, u32 NumRegions, F &&Fn) {
  for (OmptThread *T = OmptThreadList(); T; T = T->Next)
    for (u32 I = 0; I < T->NumSlots; ++I)
      for (u32 R = 0; R < NumRegions; ++R)
        if (Codes[R] == T->Slots[I].CodePtr)
          Fn(T, I, R);
}

// SK_Parallel: the OpenMP worker-state counters of every thread, per region.
// Regions are keyed by the fork call's return address, written as an
// address in its object (minus the load bias) plus the object's path.
void WriteParallel(OutBuffer *B, u32 Status, const char *Exe, uptr ExeLen,
                   u64 EndTick) {
  constexpr u32 kMaxRegions = 1024;
  uptr Codes[kMaxRegions];
  u64 Lost = OmptLostEvents();
  u32 NumRegions = CollectRegionCodes(Codes, kMaxRegions, &Lost);
  // Region records; paths appended after the entries.
  uptr RegionBytes = NumRegions * sizeof(raw::RegionRecord);
  raw::RegionRecord *Regions =
      NumRegions ? (raw::RegionRecord *)MmapOrDie(RegionBytes,
                                                  "ActiveTime regions")
                 : nullptr;
  InternalScopedString Paths;
  for (u32 R = 0; R < NumRegions; ++R)
    LocateRegion(Regions[R], Codes[R], Exe, ExeLen, Paths);
  u32 Entries = 0;
  ForEachRegionSlot(Codes, NumRegions, [&](OmptThread *T, u32 I, u32 R) {
    const RegionSlot &S = T->Slots[I];
    Regions[R].Instances += S.Instances;
    Regions[R].WallTicks += S.WallTicks;
    if (S.MaxWorkers > Regions[R].MaxWorkers)
      Regions[R].MaxWorkers = S.MaxWorkers;
    ++Entries;
  });
  raw::ParallelRecord PR;
  internal_memset(&PR, 0, sizeof(PR));
  PR.Status = Status;
  PR.NumRegions = NumRegions;
  PR.NumEntries = Entries;
  PR.StringBytes = (u32)Paths.length();
  PR.LostEvents = Lost;
  B->Append(&PR, sizeof(PR));
  if (NumRegions)
    B->Append(Regions, RegionBytes);
  ForEachRegionSlot(Codes, NumRegions, [&](OmptThread *T, u32 I, u32 R) {
    raw::RegionThreadRecord Rec;
    OmptSnapshot(T, I, EndTick, &Rec);
    Rec.Region = R;
    Rec.Tid = T->Tid;
    B->Append(&Rec, sizeof(Rec));
  });
  B->Append(Paths.data(), Paths.length());
  B->AppendZeros(RoundUpTo(Paths.length(), 8) - Paths.length());
  if (Regions)
    UnmapOrDie(Regions, RegionBytes);
}

// The per-thread tree-index -> written-node maps the samples section
// translates through (only when there are samples to write).
struct NodeMaps {
  u32 **Maps = nullptr;
  u32 *MapNs = nullptr;
  uptr MapsBytes = 0, MapNsBytes = 0;

  void Allocate(u32 NumThreads) {
    uptr PS = GetPageSizeCached();
    MapsBytes = RoundUpTo(NumThreads * sizeof(u32 *), PS);
    MapNsBytes = RoundUpTo(NumThreads * sizeof(u32), PS);
    Maps = (u32 **)MmapOrDie(MapsBytes, "ActiveTime writer maps");
    MapNs = (u32 *)MmapOrDie(MapNsBytes, "ActiveTime writer maps");
  }
  void Release(u32 NumThreads) {
    if (!Maps)
      return;
    for (u32 I = 0; I < NumThreads; ++I)
      UnmapOrDie(Maps[I], RoundUpTo(uptr(MapNs[I]) * sizeof(u32),
                                    GetPageSizeCached()));
    UnmapOrDie(Maps, MapsBytes);
    UnmapOrDie(MapNs, MapNsBytes);
  }
};

// What the process record counts, and the executable it names.
struct ProcessFacts {
  u32 NumThreads = 0, NumTraces = 0, NumStrides = 0;
  char Exe[4096];
  uptr ExeLen = 0;
};

void GatherProcessFacts(ProcessFacts *F) {
  for (uptr I = 0; I < NumModules(); ++I)
    F->NumStrides += GetModule(I)->NumSites != 0;
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next) {
    ++F->NumThreads;
    F->NumTraces += HasTrace(TS);
  }
  F->ExeLen = ReadBinaryName(F->Exe, sizeof(F->Exe));
  if (F->ExeLen >= sizeof(F->Exe))
    F->ExeLen = 0;
}

// SK_Process payload.
void WriteProcess(OutBuffer *B, const ProcessFacts &F, u64 TickRate,
                  u64 EndTick) {
  u8 BuildId[64];
  uptr BuildIdLen = MainBuildId(BuildId, sizeof(BuildId));
  raw::ProcessRecord PR;
  internal_memset(&PR, 0, sizeof(PR));
  PR.TickRate = TickRate;
  PR.StartTick = runtime.StartTick;
  PR.EndTick = EndTick;
  PR.StartUnixNs = runtime.StartUnixNs;
  PR.Pid = (u32)internal_getpid();
  PR.ParentPid = (u32)internal_getppid();
  PR.NumModules = (u32)NumModules();
  PR.NumThreads = F.NumThreads;
  PR.NumTraces = F.NumTraces;
  PR.NumStrides = F.NumStrides;
  PR.Overhead = runtime.Overhead;
  PR.TickStep256 = runtime.TickStep256;
  PR.TimingThreshold = TimingThreshold();
  PR.CodeSamplePeriodNs = CodeSamplePeriodNs();
  PR.CodeSampleCost256 = CodeSampleCost256();
  PR.CodeSampleFlags = CodeSamplingFlags();
  PR.ExeLen = (u32)F.ExeLen;
  PR.BuildIdLen = (u32)BuildIdLen;
  B->Append(&PR, sizeof(PR));
  B->Append(F.Exe, F.ExeLen);
  B->Append(BuildId, BuildIdLen);
}

// The sections after the header, in file order: process, modules, threads,
// traces, strides, parallel regions, samples. Returns how many.
u32 WriteSections(OutBuffer *B, const ProcessFacts &F, u64 TickRate,
                  u64 EndTick) {
  u32 NumSections = 0;
  auto Section = [&](u32 Kind, auto &&WritePayload) {
    uptr Off = BeginSection(B, Kind);
    WritePayload();
    EndSection(B, Off);
    ++NumSections;
  };
  // Samples: one section after the traces if the sampler ever ran.
  SamplerView SV;
  bool HaveSamples = GetSamplerView(&SV, EndTick, TickRate);
  NodeMaps NM;
  if (HaveSamples && F.NumThreads)
    NM.Allocate(F.NumThreads);

  Section(raw::SK_Process, [&] { WriteProcess(B, F, TickRate, EndTick); });
  for (uptr I = 0; I < NumModules(); ++I)
    Section(raw::SK_Module, [&] { WriteModule(B, GetModule(I)); });
  u32 Ord = 0;
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next, ++Ord)
    Section(raw::SK_Thread, [&] {
      WriteThread(B, TS, EndTick, NM.Maps ? &NM.Maps[Ord] : nullptr,
                  NM.MapNs ? &NM.MapNs[Ord] : nullptr);
    });
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next)
    if (HasTrace(TS))
      Section(raw::SK_Trace, [&] { WriteTrace(B, TS); });
  for (uptr I = 0; I < NumModules(); ++I)
    if (GetModule(I)->NumSites)
      Section(raw::SK_Strides, [&] { WriteStrides(B, (u32)I, GetModule(I)); });
  u32 OmpStatus = OmptStatus();
  if (OmpStatus != raw::OS_NoOpenMP)
    Section(raw::SK_Parallel, [&] {
      WriteParallel(B, OmpStatus, F.Exe, F.ExeLen, EndTick);
    });
  if (HaveSamples) {
    WriteSamples(B, SV, F.NumThreads, NM.Maps, NM.MapNs); // its own section
    ++NumSections;
    NM.Release(F.NumThreads);
  }
  return NumSections;
}

void SerializeProfile(OutBuffer *B, u64 TickRate, u64 EndTick) {
  // The writing thread's switch records up to EndTick are consumed now (its
  // probe state is held busy by WriteProfile); other live threads' records
  // are theirs to consume: their figures are as of their last probe. Before
  // the locks: draining code samples takes the loader's lock, which must
  // never be waited for while holding the registry.
  ThreadTls &Self = at_tls;
  if (Self.TS && !Self.Dead && Self.Capacity && Self.SwitchHead)
    SwitchCheckSlow(Self, EndTick);

  LockModules();
  LockThreadRegistry();
  BuildFuncIdIndex();

  raw::FileHeader H;
  internal_memset(&H, 0, sizeof(H));
  internal_memcpy(H.Magic, raw::kMagic, sizeof(H.Magic));
  H.Version = raw::kVersion;
  H.HeaderSize = sizeof(raw::FileHeader);
  B->Append(&H, sizeof(H));
  ProcessFacts F;
  GatherProcessFacts(&F);
  u32 NumSections = WriteSections(B, F, TickRate, EndTick);

  UnlockThreadRegistry();
  UnlockModules();

  raw::FileHeader *HP = (raw::FileHeader *)B->Data;
  HP->FileSize = B->Size;
  HP->NumSections = NumSections;
  HP->Checksum = Checksum64(HP, raw::kFileHeaderChecksummed);
}

namespace {
Mutex write_mu;
} // namespace

void LockProfileWrites() { write_mu.Lock(); }
void UnlockProfileWrites() { write_mu.Unlock(); }

bool WriteProfile() {
  Lock WriteLock(&write_mu);
  ThreadTls &T = at_tls;
  // Odd: probes from signal handlers must not change our stack now.
  u32 SavedSeq = T.Seq;
  u32 RestoreSeq = (SavedSeq & 1) ? SavedSeq : SavedSeq + 2;
  T.Seq = SavedSeq | 1;
  AT_BARRIER();

  // The profile ends now; a short run's calibration spin comes after it and
  // must not show up as wall time.
  u64 EndTick = ReadTick();
  u64 Rate = CalibrateTickRate(flags()->min_calibration_ms);
  OutBuffer B = {nullptr, 0, 0};
  SerializeProfile(&B, Rate, EndTick);
  bool Ok = WriteProfileOutput(B.Data, B.Size);
  B.Release();
  AT_BARRIER();
  T.Seq = RestoreSeq;
  return Ok;
}

} // namespace __activetime
