//===- activetime_writer.cpp - Raw profile writer ---------------*- C++ -*-===//

#include "activetime_writer.h"

#include "activetime/raw_format.h"
#include "activetime_flags.h"
#include "activetime_module.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>

namespace __activetime {

namespace raw = activetime::raw;

void OutBuffer::Append(const void *P, uptr N) {
  if (Size + N > Cap) {
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
  raw::SectionHeader SH = {Kind, 0, 0};
  B->Append(&SH, sizeof(SH));
  return Off;
}

void EndSection(OutBuffer *B, uptr Off) {
  B->PadTo8();
  raw::SectionHeader *SH = (raw::SectionHeader *)(B->Data + Off);
  SH->Size = B->Size - Off - sizeof(raw::SectionHeader);
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
  B->Append(&R, sizeof(R));
  B->Append(MI->Name, R.NameLen);
  B->Append(MI->Path, R.PathLen);
  for (u32 I = 0; I < MI->NumFuncs; ++I) {
    const FuncDesc &F = MI->Funcs[I];
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

constexpr u32 kMapRoot = 0xfffffffeu;
constexpr u32 kMapDrop = 0xffffffffu;

void WriteThread(OutBuffer *B, ThreadState *TS, u64 EndTick) {
  raw::ThreadRecord TR;
  internal_memset(&TR, 0, sizeof(TR));
  uptr RecOff = B->Size;
  B->Append(&TR, sizeof(TR));
  uptr NodesOff = B->Size;

  CallTree &Tree = TS->Tree;
  u32 N = Tree.SizeAcquire();
  uptr MapBytes = RoundUpTo(uptr(N) * sizeof(u32), GetPageSizeCached());
  u32 *Map = (u32 *)MmapOrDie(MapBytes, "ActiveTime writer map");
  Map[0] = kMapRoot;
  u32 Out = 0;
  u64 Dropped = 0;
  for (u32 I = 1; I < N; ++I) {
    const Node *X = Tree.AtAcquire(I);
    u32 P = X->Parent < I ? Map[X->Parent] : kMapDrop;
    u32 Id;
    if (P == kMapDrop || !LookupFuncId(X->Fn, &Id)) {
      Map[I] = kMapDrop;
      Dropped += X->Calls ? X->Calls : 1;
      continue;
    }
    raw::NodeRecord R;
    R.Parent = P == kMapRoot ? raw::kNoParent : P;
    R.Func = Id;
    R.Calls = X->Calls;
    R.InclTicks = X->Incl;
    R.ExclTicks = X->Excl;
    R.MinTicks = X->Calls ? X->Min : 0;
    R.MaxTicks = X->Max;
    B->Append(&R, sizeof(R));
    Map[I] = Out++;
  }

  u64 Open = 0;
  u64 ThreadEnd = TS->Finished ? TS->EndTick : EndTick;
  ThreadTls *T = TS->Finished ? nullptr : TS->Tls;
  if (T) {
    // Account the open frames up to EndTick in the written copy only.
    // (Another live thread may be running: best effort, bounded reads.)
    Frame *Stk = *(Frame *volatile *)&T->Stack;
    u32 Cap = *(volatile u32 *)&T->Capacity;
    u32 D = *(volatile u32 *)&T->Depth;
    if (D > Cap)
      D = Cap;
    raw::NodeRecord *Recs = (raw::NodeRecord *)(B->Data + NodesOff);
    u64 Carry = 0;
    for (u32 I = D; Stk && I-- > 1;) {
      Frame F = Stk[I];
      u64 El = EndTick > F.StartTick ? EndTick - F.StartTick : 0;
      if (F.NodeIdx >= N || Map[F.NodeIdx] >= kMapRoot) {
        Carry = El;
        continue;
      }
      raw::NodeRecord *R = &Recs[Map[F.NodeIdx]];
      u64 Child = F.ChildTicks + Carry;
      R->Calls++;
      R->InclTicks += El;
      R->ExclTicks += El > Child ? El - Child : 0;
      if (R->Calls == 1 || El < R->MinTicks)
        R->MinTicks = El;
      if (El > R->MaxTicks)
        R->MaxTicks = El;
      Carry = El;
      ++Open;
    }
  }
  UnmapOrDie(Map, MapBytes);

  raw::ThreadRecord *P = (raw::ThreadRecord *)(B->Data + RecOff);
  P->Tid = TS->Tid;
  P->StartTick = TS->StartTick;
  P->EndTick = ThreadEnd;
  P->NumNodes = Out;
  P->Flags = TS->Finished ? 0 : raw::TF_Running;
  P->OpenFrames = Open;
  P->UnmatchedExits = TS->UnmatchedExits;
  P->UnwoundFrames = TS->UnwoundFrames;
  P->DroppedEvents = TS->DroppedEvents + Dropped;
  internal_memcpy(P->Name, TS->Name, sizeof(P->Name));
}

const char *BaseName(const char *Path) {
  const char *B = Path;
  for (const char *P = Path; *P; ++P)
    if (*P == '/')
      B = P + 1;
  return B;
}

} // namespace

void SerializeProfile(OutBuffer *B, u64 TickRate, u64 EndTick) {
  LockModules();
  LockThreadRegistry();
  BuildFuncIdIndex();

  raw::FileHeader H;
  internal_memset(&H, 0, sizeof(H));
  internal_memcpy(H.Magic, raw::kMagic, sizeof(H.Magic));
  H.Version = raw::kVersion;
  H.HeaderSize = sizeof(raw::FileHeader);
  B->Append(&H, sizeof(H));
  u32 NumSections = 0;

  u32 NumThreads = 0;
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next)
    ++NumThreads;

  // Process.
  char Exe[4096];
  uptr ExeLen = ReadBinaryName(Exe, sizeof(Exe));
  if (ExeLen >= sizeof(Exe))
    ExeLen = 0;
  u8 BuildId[64];
  uptr BuildIdLen = MainBuildId(BuildId, sizeof(BuildId));
  uptr Off = BeginSection(B, raw::SK_Process);
  raw::ProcessRecord PR;
  internal_memset(&PR, 0, sizeof(PR));
  PR.TickRate = TickRate;
  PR.StartTick = runtime.StartTick;
  PR.EndTick = EndTick;
  PR.StartUnixNs = runtime.StartUnixNs;
  PR.Pid = (u32)internal_getpid();
  PR.ParentPid = (u32)internal_getppid();
  PR.NumModules = (u32)NumModules();
  PR.NumThreads = NumThreads;
  PR.ExeLen = (u32)ExeLen;
  PR.BuildIdLen = (u32)BuildIdLen;
  B->Append(&PR, sizeof(PR));
  B->Append(Exe, ExeLen);
  B->Append(BuildId, BuildIdLen);
  EndSection(B, Off);
  ++NumSections;

  for (uptr I = 0; I < NumModules(); ++I) {
    Off = BeginSection(B, raw::SK_Module);
    WriteModule(B, GetModule(I));
    EndSection(B, Off);
    ++NumSections;
  }

  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next) {
    Off = BeginSection(B, raw::SK_Thread);
    WriteThread(B, TS, EndTick);
    EndSection(B, Off);
    ++NumSections;
  }

  UnlockThreadRegistry();
  UnlockModules();

  raw::FileHeader *HP = (raw::FileHeader *)B->Data;
  HP->FileSize = B->Size;
  HP->NumSections = NumSections;
}

bool ExpandOutputPattern(const char *Pattern, const char *ExeBase, u32 Pid,
                         char *Out, uptr OutSize) {
  uptr O = 0;
  auto Put = [&](const char *S, uptr N) {
    if (O + N + 1 > OutSize)
      return false;
    internal_memcpy(Out + O, S, N);
    O += N;
    return true;
  };
  for (const char *P = Pattern; *P; ++P) {
    bool Ok;
    if (P[0] == '%' && P[1] == 'e') {
      Ok = Put(ExeBase, internal_strlen(ExeBase));
      ++P;
    } else if (P[0] == '%' && P[1] == 'p') {
      char Num[16];
      int N = internal_snprintf(Num, sizeof(Num), "%u", Pid);
      Ok = Put(Num, N);
      ++P;
    } else if (P[0] == '%' && P[1] == '%') {
      Ok = Put("%", 1);
      ++P;
    } else {
      Ok = Put(P, 1);
    }
    if (!Ok)
      return false;
  }
  if (O >= OutSize)
    return false;
  Out[O] = 0;
  return true;
}

bool BuildOutputPath(const char *OutputFlag, const char *ExeBase, u32 Pid,
                     char *Out, uptr OutSize) {
  static const char kDefault[] = "activetime.%e.%p.raw";
  char Pattern[4096];
  const char *Flag = OutputFlag ? OutputFlag : "";
  uptr L = internal_strlen(Flag);
  if (L == 0) {
    internal_strlcpy(Pattern, kDefault, sizeof(Pattern));
  } else if (Flag[L - 1] == '/') {
    if (L + sizeof(kDefault) > sizeof(Pattern))
      return false;
    internal_memcpy(Pattern, Flag, L);
    internal_memcpy(Pattern + L, kDefault, sizeof(kDefault));
  } else {
    if (L >= sizeof(Pattern))
      return false;
    internal_memcpy(Pattern, Flag, L + 1);
  }
  return ExpandOutputPattern(Pattern, ExeBase, Pid, Out, OutSize);
}

bool WriteProfile() {
  ThreadTls &T = at_tls;
  u32 SavedBusy = T.Busy;
  T.Busy = 1; // probes from signal handlers must not change our stack now
  AT_BARRIER();

  // The profile ends now; a short run's calibration spin comes after it and
  // must not show up as wall time.
  u64 EndTick = ReadTick();
  u64 CalibratedAt;
  u64 Rate = CalibrateTickRate(flags()->min_calibration_ms, &CalibratedAt);
  OutBuffer B = {nullptr, 0, 0};
  SerializeProfile(&B, Rate, EndTick);

  char Exe[4096];
  uptr ExeLen = ReadBinaryName(Exe, sizeof(Exe));
  if (ExeLen >= sizeof(Exe))
    ExeLen = 0;
  Exe[ExeLen] = 0;
  u32 Pid = (u32)internal_getpid();
  char Path[4096];
  char Tmp[4096 + 32];
  bool Ok = false;
  int Err = 0;
  const char *What = "";
  if (!BuildOutputPath(flags()->output, ExeLen ? BaseName(Exe) : "unknown", Pid,
                       Path, sizeof(Path))) {
    Printf("ActiveTime: ERROR: cannot write profile: output path from "
           "output='%s' is too long\n",
           flags()->output);
    B.Release();
    T.Busy = SavedBusy;
    return false;
  }
  internal_snprintf(Tmp, sizeof(Tmp), "%s.tmp.%u", Path, Pid);
  uptr Fd = internal_open(Tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (internal_iserror(Fd, &Err)) {
    What = "open";
  } else {
    uptr Done = 0;
    while (Done < B.Size) {
      uptr W = internal_write((fd_t)Fd, B.Data + Done, B.Size - Done);
      if (internal_iserror(W, &Err)) {
        if (Err == EINTR)
          continue;
        What = "write";
        break;
      }
      Done += W;
    }
    if (internal_iserror(internal_close((fd_t)Fd), &Err) && Done == B.Size) {
      What = "close";
      Done = 0;
    }
    if (Done == B.Size) {
      uptr R = internal_rename(Tmp, Path);
      if (internal_iserror(R, &Err))
        What = "rename";
      else
        Ok = true;
    }
    if (!Ok)
      internal_unlink(Tmp);
  }
  if (!Ok)
    Printf("ActiveTime: ERROR: cannot write profile '%s' (%s failed, errno "
           "%d)\n",
           Path, What, Err);
  else if (flags()->verbosity >= 1)
    Printf("ActiveTime: wrote profile %s (%zu bytes)\n", Path, (uptr)B.Size);
  B.Release();
  AT_BARRIER();
  T.Busy = SavedBusy;
  return Ok;
}

} // namespace __activetime
