//===- activetime_trace.cpp - mode=trace buffers ----------------*- C++ -*-===//
//
// Each traced thread's event and switch buffers are mapped whole at thread
// init (trace_buffer_events / trace_buffer_switches), but their pages are
// faulted in ("made ready") by the runtime a chunk at a time just before the
// writes reach them, never by the writes themselves. A page fault costs
// microseconds (more in a VM), and a thread that fills the default 24 MiB
// event buffer takes 6,144 of them: left to the writes, that cost fell into
// random probes and nothing said how much it was. Made ready here, it
//  * is one system call per chunk, inside the probe whose write needs it,
//    between that probe's two tick reads: part of the probe's measured cost,
//    which every open call has removed from its active time
//    (activetime_probes.cpp); at thread init it is before any call;
//  * is timed (BufferTicks) and written to the trace section, so the report
//    says how much the trace perturbed the run;
//  * touches only what is written, plus at most one chunk: the mapping costs
//    nothing until used, so 1,000 traced threads do not take 24 GiB, and
//    pre-faulting whole buffers at thread start was not an option.
// MADV_POPULATE_WRITE (Linux >= 5.14) faults a chunk in one call; older
// kernels refuse it (EINVAL, remembered) and the chunk's pages are written
// to one by one instead, still timed. With trace_huge_pages=1, beyond the
// first 2 MiB a buffer asks for transparent huge pages where the kernel
// offers them: a long trace then takes one fault per 2 MiB, up to 2x
// cheaper than 512 small ones, but where the kernel compacts memory to find
// one a fault can stall for milliseconds (up to 4x dearer in all,
// docs/performance.md), so it is off by default. Short traces stay in
// small pages either way.
//
//===----------------------------------------------------------------------===//

#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_module.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_writer.h"
#include "sanitizer_common/sanitizer_errno_codes.h"
#include "sanitizer_common/sanitizer_file.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

namespace __activetime {

namespace raw = activetime::raw;

namespace {
constexpr int kMadvHugePage = 14;         // MADV_HUGEPAGE
constexpr int kMadvNoHugePage = 15;       // MADV_NOHUGEPAGE
constexpr int kMadvPopulateWrite = 23;    // MADV_POPULATE_WRITE (5.14)
constexpr uptr kHugePage = uptr(2) << 20; // x86-64 and 4 KiB-page AArch64
// Made ready at thread init (the first events of every traced thread), and
// then per chunk: 16 pages, some 40 us of faults here.
constexpr uptr kFirstEventBytes = uptr(16) << 10;
constexpr uptr kFirstSwitchBytes = uptr(4) << 10;
constexpr uptr kChunkBytes = uptr(64) << 10;

// 1: the kernel refused MADV_POPULATE_WRITE (too old); pages are touched.
u32 populate_refused;
// Bytes all threads' trace buffers may still make ready (trace_memory_mb);
// set at the first traced thread.
u64 budget_left;
u32 budget_state; // 0 not set yet, 1 being set, 2 set
// Transparent huge pages of kHugePage: 0 not looked up yet, 1 yes, 2 no.
u32 huge_pages_state;

// /sys/kernel/mm/transparent_hugepage: enabled not "[never]" and a PMD
// huge page of kHugePage bytes.
// The file at Path, up to Size - 1 bytes, terminated; false if it cannot
// be read or is empty.
bool ReadSmallFile(const char *Path, char *Buf, uptr Size) {
  fd_t Fd = internal_open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd == kInvalidFd)
    return false;
  uptr N = internal_read(Fd, Buf, Size - 1);
  internal_close(Fd);
  if (internal_iserror(N) || N == 0)
    return false;
  Buf[N] = 0;
  return true;
}

bool ReadHugePagesAvailable() {
  char Buf[128];
  if (!ReadSmallFile("/sys/kernel/mm/transparent_hugepage/enabled", Buf,
                     sizeof(Buf)) ||
      internal_strstr(Buf, "[never]"))
    return false;
  if (!ReadSmallFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
                     Buf, sizeof(Buf)))
    return false;
  return internal_atoll(Buf) == (s64)kHugePage;
}

bool HugePagesAvailable() {
  u32 S = __atomic_load_n(&huge_pages_state, __ATOMIC_RELAXED);
  if (!S) {
    S = ReadHugePagesAvailable() ? 1 : 2;
    __atomic_store_n(&huge_pages_state, S, __ATOMIC_RELAXED);
  }
  return S == 1;
}

// Maps Bytes for a buffer; beyond its first 2 MiB (kept in small pages even
// where huge pages are the system default) it asks for huge pages.
// Address space only (no reserve: pages count when made ready), so that
// any capacity the flag accepts maps; where even that is refused (a limit on
// address space), the buffer is empty and every event is dropped and
// counted, as when it fills.
bool MapTraceMemory(TraceMemory &M, uptr Bytes, const char *Name,
                    u32 *Flags) {
  M.Bytes = RoundUpTo(Bytes, GetPageSizeCached());
  M.Ready = 0;
  uptr P = MmapNamed(nullptr, M.Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, Name);
  if (internal_iserror(P)) {
    M.Base = nullptr;
    M.Bytes = M.HugeFrom = 0;
    return false;
  }
  M.Base = (char *)P;
  M.HugeFrom = M.Bytes;
  uptr B = uptr(M.Base);
  uptr H = RoundUpTo(B + kHugePage, kHugePage);
  uptr E = RoundDownTo(B + M.Bytes, kHugePage);
  if (E <= H || !flags()->trace_huge_pages || !HugePagesAvailable())
    return true;
  if (internal_madvise(H, E - H, kMadvHugePage) != 0)
    return true;
  internal_madvise(B, H - B, kMadvNoHugePage);
  M.HugeFrom = H - B;
  *Flags |= raw::TBF_HugePages;
  return true;
}

// Faults in [From, To) of M: one MADV_POPULATE_WRITE, or a write to each
// page where the kernel does not know it (or failed it otherwise, e.g.
// interrupted). The memory beyond Ready was never written, so writing 0
// there changes nothing. False when the kernel has no memory for it: the
// program must not be killed for its trace, whose later events are dropped.
bool FaultIn(TraceMemory &M, uptr From, uptr To, u32 *Flags) {
  if (!__atomic_load_n(&populate_refused, __ATOMIC_RELAXED)) {
    int R = internal_madvise(uptr(M.Base) + From, To - From, kMadvPopulateWrite);
    if (R == 0) {
      *Flags |= raw::TBF_Populate;
      return true;
    }
    if (R == -errno_ENOMEM) {
      *Flags |= raw::TBF_NoMemory;
      return false;
    }
    if (R == -errno_EINVAL)
      __atomic_store_n(&populate_refused, 1u, __ATOMIC_RELAXED);
  }
  uptr PS = GetPageSizeCached();
  for (uptr P = From; P < To; P += PS)
    ((volatile char *)M.Base)[P] = 0;
  *Flags |= raw::TBF_Touch;
  return true;
}

// The first number in the file at Path (0: none, or "max").
u64 ReadNumber(const char *Path) {
  char Buf[64];
  if (!ReadSmallFile(Path, Buf, sizeof(Buf)) || Buf[0] < '0' || Buf[0] > '9')
    return 0;
  return (u64)internal_atoll(Buf);
}

// The lowest memory limit of the process's cgroup and its ancestors (v2:
// memory.max; v1: memory.limit_in_bytes), 0 if none.
u64 CgroupMemoryLimit() {
  char Buf[4096];
  if (!ReadSmallFile("/proc/self/cgroup", Buf, sizeof(Buf)))
    return 0;
  // cgroup v2 alone is mounted at /sys/fs/cgroup; beside v1 (hybrid), at
  // /sys/fs/cgroup/unified.
  const char *V2 = DirExists("/sys/fs/cgroup/unified") ? "/sys/fs/cgroup/unified"
                                                       : "/sys/fs/cgroup";
  u64 Limit = 0;
  for (char *Line = Buf; *Line;) {
    char *End = internal_strchr(Line, '\n');
    if (End)
      *End = 0;
    // "0::/path" (v2) or "N:memory:/path" (v1; maybe "N:cpu,memory:/path").
    const char *Dir = nullptr, *File = nullptr;
    char *Path = internal_strchr(Line, ':');
    Path = Path ? internal_strchr(Path + 1, ':') : nullptr;
    if (Path && internal_strncmp(Line, "0::", 3) == 0) {
      Dir = V2;
      File = "memory.max";
    } else if (Path && internal_strstr(Line, "memory")) {
      Dir = "/sys/fs/cgroup/memory";
      File = "memory.limit_in_bytes";
    }
    if (Dir) {
      char P[4096 + 64];
      ++Path; // past the ':'
      for (uptr L = internal_strlen(Path);; --L) {
        if (L == 0 || Path[L - 1] == '/' || Path[L] == 0) {
          internal_snprintf(P, sizeof(P), "%s%.*s/%s", Dir, (int)L, Path,
                            File);
          u64 V = ReadNumber(P);
          if (V && (!Limit || V < Limit))
            Limit = V;
        }
        if (L == 0)
          break;
      }
    }
    if (!End)
      break;
    Line = End + 1;
  }
  return Limit;
}

u64 TraceMemoryBudget() {
  if (flags()->trace_memory_mb)
    return u64(flags()->trace_memory_mb) << 20;
  u64 Limit = CgroupMemoryLimit();
  struct sysinfo SI;
  if (sysinfo(&SI) == 0) {
    u64 Phys = u64(SI.totalram) * (SI.mem_unit ? SI.mem_unit : 1);
    if (Phys && (!Limit || Phys < Limit))
      Limit = Phys;
  }
  return Limit ? Limit / 4 : ~u64(0);
}

// Takes Bytes of the process's trace memory budget; false when it is spent.
bool TakeBudget(uptr Bytes) {
  if (__atomic_load_n(&budget_state, __ATOMIC_ACQUIRE) != 2) {
    u32 Expected = 0;
    if (__atomic_compare_exchange_n(&budget_state, &Expected, 1, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      __atomic_store_n(&budget_left, TraceMemoryBudget(), __ATOMIC_RELAXED);
      __atomic_store_n(&budget_state, 2, __ATOMIC_RELEASE);
    }
    while (__atomic_load_n(&budget_state, __ATOMIC_ACQUIRE) != 2)
      internal_sched_yield();
  }
  u64 Left = __atomic_load_n(&budget_left, __ATOMIC_RELAXED);
  do {
    if (Left < Bytes)
      return false;
  } while (!__atomic_compare_exchange_n(&budget_left, &Left, Left - Bytes,
                                        true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  return true;
}

// Makes the next chunk of M ready (at least Want bytes where that fits):
// small-page chunks of kChunkBytes below HugeFrom, one huge page above.
// Timed into B's figures.
void ReadyMore(TraceBuffers &B, TraceMemory &M, uptr Want) {
  uptr From = M.Ready;
  if (From >= M.Bytes)
    return;
  uptr To;
  if (From >= M.HugeFrom)
    To = M.HugeFrom + RoundUpTo(From - M.HugeFrom + 1, kHugePage);
  else
    To = Min(From + RoundUpTo(Want, GetPageSizeCached()), M.HugeFrom);
  To = Min(To, M.Bytes);
  u64 T0 = ReadTick();
  u32 Flags = B.BufferFlags;
  bool Ok = TakeBudget(To - From);
  if (!Ok)
    Flags |= raw::TBF_Budget;
  else
    Ok = FaultIn(M, From, To, &Flags);
  u64 T1 = ReadTick();
  if (Ok)
    M.Ready = To;
  else
    M.Bytes = M.Ready; // no more tries: the buffer ends here
  To = M.Ready > From ? M.Ready : From;
  // Relaxed atomics: the writer reads them while the thread runs.
  __atomic_store_n(&B.BufferFlags, Flags, __ATOMIC_RELAXED);
  __atomic_store_n(&B.BufferTicks, B.BufferTicks + (T1 > T0 ? T1 - T0 : 0),
                   __ATOMIC_RELAXED);
  __atomic_store_n(&B.BufferBytes, B.BufferBytes + (To - From),
                   __ATOMIC_RELAXED);
}

template <class Rec> u64 Fitting(const TraceMemory &M, u64 Cap) {
  u64 N = M.Ready / sizeof(Rec);
  return N < Cap ? N : Cap;
}
} // namespace

void OpenTraceBuffers(TraceBuffers &B) {
  B.CapEvents = u64(flags()->trace_buffer_events);
  B.CapSwitches = u64(flags()->trace_buffer_switches);
  if (B.CapEvents && !MapTraceMemory(B.EventMem, B.CapEvents * sizeof(TraceEv),
                                     "ActiveTime trace events",
                                     &B.BufferFlags))
    B.CapEvents = 0;
  if (B.CapEvents) {
    B.Events = (TraceEv *)B.EventMem.Base;
    ReadyMore(B, B.EventMem, kFirstEventBytes);
    B.ReadyEvents = Fitting<TraceEv>(B.EventMem, B.CapEvents);
  }
  if (B.CapSwitches &&
      !MapTraceMemory(B.SwitchMem, B.CapSwitches * sizeof(TraceSw),
                      "ActiveTime trace switches", &B.BufferFlags))
    B.CapSwitches = 0;
  if (B.CapSwitches) {
    B.Switches = (TraceSw *)B.SwitchMem.Base;
    ReadyMore(B, B.SwitchMem, kFirstSwitchBytes);
    B.ReadySwitches = Fitting<TraceSw>(B.SwitchMem, B.CapSwitches);
  }
}

// A chunk holds many records, so one is always enough for the next.
bool TraceReadyEvents(TraceBuffers &B) {
  if (B.ReadyEvents < B.CapEvents) {
    ReadyMore(B, B.EventMem, kChunkBytes);
    B.ReadyEvents = Fitting<TraceEv>(B.EventMem, B.CapEvents);
  }
  return B.NumEvents < B.ReadyEvents;
}

bool TraceReadySwitches(TraceBuffers &B) {
  if (B.ReadySwitches < B.CapSwitches) {
    ReadyMore(B, B.SwitchMem, kChunkBytes);
    B.ReadySwitches = Fitting<TraceSw>(B.SwitchMem, B.CapSwitches);
  }
  return B.NumSwitches < B.ReadySwitches;
}

// The child's pages are copy-on-write shares of the parent's: a write
// would copy each, a fault again. From Ready = 0 they are made ready (and
// copied) a chunk at a time like new ones, and timed for the child.
void ResetTraceBuffersAfterFork(TraceBuffers &B) {
  B.NumEvents = B.DroppedEvents = B.OpenEvent = 0;
  B.NumSwitches = B.DroppedSwitches = 0;
  B.EventMem.Ready = B.SwitchMem.Ready = 0;
  B.ReadyEvents = B.ReadySwitches = 0;
  B.BufferTicks = B.BufferBytes = 0;
  B.BufferFlags &= raw::TBF_HugePages;
}

namespace {
// mode=trace: the thread's buffers; every probe then stores its measured
// interval in its event (LongProbe 0 sends each to OnCpuPart).
void StartThreadTrace(ThreadTls &T, ThreadState *TS, u64) {
  if (flags()->mode != RunMode::Trace)
    return;
  OpenTraceBuffers(TS->Trace);
  T.Trace = 1;
  T.LongProbe = 0;
}

void RestartThreadTrace(ThreadTls &, ThreadState *TS, u64) {
  ResetTraceBuffersAfterFork(TS->Trace);
}

bool HasTrace(const ThreadState *TS) {
  return TS->Trace.Events || TS->Trace.Switches;
}

void FillTraceProcessRecord(raw::ProcessRecord &R) {
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next)
    R.NumTraces += HasTrace(TS);
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

void WriteTraceSections(ProfileWriter &W) {
  for (ThreadState *TS = ThreadListHead(); TS; TS = TS->Next)
    if (HasTrace(TS))
      W.Section(raw::SK_Trace, [&] { WriteTrace(W.Out, TS); });
}
} // namespace

const Collector kTraceCollector = {
    .Name = "trace",
    .Order = 50,
    .ThreadStart = StartThreadTrace,
    .ThreadAfterForkChild = RestartThreadTrace,
    .FillProcess = FillTraceProcessRecord,
    .WriteSections = WriteTraceSections,
};
AT_REGISTER_COLLECTOR(kTraceCollector);

} // namespace __activetime
