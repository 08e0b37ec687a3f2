//===- activetime_rtl.cpp - ActiveTime runtime start-up ---------*- C++ -*-===//
//
// One-time initialization (from the first module registration or the first
// probe, whichever comes first), the exit-time writer and fork handling,
// which drive the collectors (activetime_collector.h); the process section.
//
//===----------------------------------------------------------------------===//

#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_flusher.h"
#include "activetime_interface.h"
#include "activetime_internal.h"
#include "activetime_module.h"
#include "activetime_output.h"
#include "activetime_recycle.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_writer.h"
#include "activetime_worker.h"
#include "sanitizer_common/sanitizer_linux.h"

#include <errno.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>

namespace __activetime {

RuntimeState runtime;

namespace {
StaticSpinMutex init_mu;
StaticSpinMutex persistent_mu;
char *persistent_cur;
uptr persistent_left;

// Whether writing to Fd could raise SIGPIPE: a socket, or a pipe whose
// reader is gone (the kernel reports POLLERR on its write end).
bool MayRaiseSigpipe(int Fd) {
  struct stat St;
  if (fstat(Fd, &St) != 0)
    return true;
  if (S_ISSOCK(St.st_mode))
    return true;
  if (!S_ISFIFO(St.st_mode))
    return false;
  struct pollfd P = {Fd, 0, 0};
  return poll(&P, 1, 0) != 1 || (P.revents & (POLLERR | POLLNVAL)) != 0;
}

// What the program printed to stdout and stderr reaches their files before
// the profile is written, which can take seconds: a program stopped during
// the write (a timeout, a memory limit) keeps its output, as it would
// without the profiler (libc flushes only after every exit handler). Only a
// stream no other thread holds: a thread blocked in a read of stdin holds
// its lock, and the exit must not wait for it; libc flushes what is left
// after the write, as before. Not into a pipe whose reader left: there the
// flush raises SIGPIPE, which would end the program before the write
// instead of after it.
void FlushStandardStream(FILE *F) {
  if (__fpending(F) == 0 || MayRaiseSigpipe(fileno(F)))
    return;
  if (ftrylockfile(F) != 0)
    return;
  fflush_unlocked(F);
  funlockfile(F);
}

void FlushStandardStreams() {
  int SavedErrno = errno;
  FlushStandardStream(stdout);
  FlushStandardStream(stderr);
  errno = SavedErrno;
}

void AtExitWriter() {
  // A child made behind the fork handlers: its worker threads' handles
  // are the parent's, and it writes nothing.
  if (!ProcessIsOurs())
    return;
  // First: stopping the runtime's threads takes milliseconds, and an MPI
  // rank whose sibling exits with an error is killed by mpirun meanwhile.
  if (flags()->write_profile)
    FlushStandardStreams();
  // The flusher writes profiles, it collects nothing: it stops before the
  // collectors (the last write is this one) and starts after them.
  StopFlusher();
  // Their figures end here; the sampler must not read threads any more.
  CallCollectors(&Collector::Stop);
  // An MPI rank whose profile went into the job's at MPI_Finalize has
  // nothing more to write (the job's profile ends there).
  if (flags()->write_profile && !ProfileHandedOff())
    WriteProfile();
  FinishFlusherAtExit();
}

void ForkPrepare() {
  LockProfileWrites(); // a write holds the locks below: it goes first
  LockModules();
  LockThreadRegistry();
  persistent_mu.Lock();
  CallCollectors(&Collector::ForkPrepare);
  // Last: a thread draining its code samples inside dl_iterate_phdr may be
  // growing its sample table (MapRecycled), and the code-sample collector
  // waits above for every such thread to leave it.
  LockRecycleForFork();
}

void ForkParent() {
  CallCollectors(&Collector::ForkParent);
  UnlockRecycleAfterFork();
  persistent_mu.Unlock();
  UnlockThreadRegistry();
  UnlockModules();
  UnlockProfileWrites();
}

void ForkChild() {
  CallCollectors(&Collector::ForkChild);
  ReopenProbeGateAfterFork();
  // The child's profile holds only post-fork time.
  u64 Now = ReadTick();
  runtime.Pid = (u32)internal_getpid();
  runtime.StartTick = Now;
  runtime.StartUnixNs = RealtimeNs();
  runtime.ForkedChild = true;
  runtime.ProfileHandedOff = false; // the child's profile is not in the job's
  ThreadRegistryAfterForkChild(Now);
  UnlockRecycleAfterFork();
  persistent_mu.Unlock();
  UnlockThreadRegistry();
  UnlockModules();
  UnlockProfileWrites();
  CallCollectors(&Collector::AfterForkChild);
  FlusherAfterForkChild();
}
} // namespace

#if ACTIVETIME_TSAN
void UnmapOrDie(void *Addr, uptr Size) {
  if (!Addr || !Size)
    return;
  if (munmap(Addr, Size) != 0) {
    Printf("ActiveTime: ERROR: munmap(%p, %zu) failed\n", Addr, (usize)Size);
    Die();
  }
}
#endif

void *PersistentAlloc(uptr Size) {
  Size = RoundUpTo(Size ? Size : 1, 16);
  if (Size > 16384)
    return MmapOrDie(Size, "ActiveTime persistent");
  SpinMutexLock L(&persistent_mu);
  if (Size > persistent_left) {
    const uptr kChunk = 1 << 16;
    persistent_cur = (char *)MmapOrDie(kChunk, "ActiveTime persistent");
    persistent_left = kChunk;
  }
  void *P = persistent_cur;
  persistent_cur += Size;
  persistent_left -= Size;
  return P;
}

char *PersistentStrdup(const char *S) {
  uptr N = internal_strlen(S);
  char *D = (char *)PersistentAlloc(N + 1);
  internal_memcpy(D, S, N + 1);
  return D;
}

// The gate's page is zeroed in every child process (it is page-aligned
// .bss, an anonymous mapping); before Linux 4.14 it is not, and a child
// made behind the fork handlers is not told apart.
static void OpenProbeGate() {
  madvise(&probe_gate, sizeof(probe_gate), MADV_WIPEONFORK);
  __atomic_fetch_or(&probe_gate.State, kGateOurs, __ATOMIC_RELEASE);
}

void AbandonProcess(ThreadTls &T) {
  if (runtime.Abandoned)
    return;
  runtime.Abandoned = true;
  VLog(1, "process %u was made by clone() without the fork handlers: it is "
          "not profiled", (u32)internal_getpid());
  CallCollectors(&Collector::ThreadAbandon, T, T.TS);
}

// init_mu held. The calibrations of timing: before the first timing
// probe's frame (the registration of the first timed module), the table
// from the flags and its calibration pending (it runs beside the program,
// activetime_overhead.cpp). A process whose code only counts blocks (a
// training build) never pays for them.
static void CalibrateTiming() {
  InitOverheadTable(); // before the first real frame is pushed
  CallCollectors(&Collector::Init);
}

// init_mu held. With timing, in the order of a timed process's start-up:
// its start tick and thread registry after the calibrations.
static void InitCore(bool Timing) {
  SanitizerToolName = "ActiveTime";
  if (!CollectorsRegistered()) {
    // A linker dropped their section: nothing could be recorded or
    // written. The gate stays closed, so every probe leaves the program
    // alone (ProcessIsOurs).
    Report("ActiveTime: the runtime's collectors are missing from the "
           "program (the linker dropped the section activetime_collectors): "
           "it runs unprofiled\n");
    atomic_store(&runtime.Initialized, 1, memory_order_release);
    return;
  }
  OpenProbeGate();
  InitializeFlags();
  CheckOutputAtStartup();
  InitTimer();
  if (Timing)
    CalibrateTiming();
  runtime.Pid = (u32)internal_getpid();
  runtime.StartTick = ReadTick();
  runtime.StartUnixNs = RealtimeNs();
  InitThreadRegistry();
  pthread_atfork(ForkPrepare, ForkParent, ForkChild);
  Atexit(AtExitWriter);
  if (Timing)
    CallCollectors(&Collector::Start);
  StartFlusher();
  atomic_store(&runtime.TimingInitialized, Timing, memory_order_release);
  atomic_store(&runtime.Initialized, 1, memory_order_release);
  VLog(2, "runtime initialized in pid %u", runtime.Pid);
}

void InitCoreSlow() {
  SpinMutexLock L(&init_mu);
  if (!atomic_load(&runtime.Initialized, memory_order_acquire))
    InitCore(/*Timing=*/false);
}

void InitRuntimeSlow() {
  SpinMutexLock L(&init_mu);
  if (!atomic_load(&runtime.Initialized, memory_order_acquire)) {
    InitCore(/*Timing=*/true);
    return;
  }
  if (atomic_load(&runtime.TimingInitialized, memory_order_acquire))
    return;
  // A timed module after block counts started the runtime (dlopen).
  CalibrateTiming();
  CallCollectors(&Collector::Start);
  atomic_store(&runtime.TimingInitialized, 1, memory_order_release);
}

// ---- The process section ---------------------------------------------------

namespace {
namespace raw = activetime::raw;

// The main executable's GNU build-id.
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

// The host's name, as fleets and MPI jobs tell their processes apart (a pid
// is only unique on its host); 0 if uname fails.
uptr HostName(struct utsname *U) {
  if (internal_uname(U) != 0)
    return 0;
  return internal_strnlen(U->nodename, sizeof(U->nodename));
}

// SK_Process payload.
void WriteProcess(const ProfileWriter &W) {
  u8 BuildId[64];
  uptr BuildIdLen = MainBuildId(BuildId, sizeof(BuildId));
  struct utsname U;
  uptr HostLen = HostName(&U);
  raw::ProcessRecord PR;
  internal_memset(&PR, 0, sizeof(PR));
  PR.TickRate = W.TickRate;
  PR.StartTick = runtime.StartTick;
  PR.EndTick = W.EndTick;
  PR.StartUnixNs = runtime.StartUnixNs;
  PR.Pid = (u32)internal_getpid();
  PR.ParentPid = (u32)internal_getppid();
  PR.NumModules = (u32)NumModules();
  PR.NumThreads = W.NumThreads;
  // Overhead and TickStep256: the probe table's collector.
  PR.ExeLen = (u32)W.ExeLen;
  PR.BuildIdLen = (u32)BuildIdLen;
  PR.HostLen = (u32)HostLen;
  PR.ThreadedByRuntimeUs =
      ThreadedByRuntimeUs(runtime.StartTick, W.EndTick, W.TickRate);
  CallCollectors(&Collector::FillProcess, PR);
  W.Out->Append(&PR, sizeof(PR));
  W.Out->Append(W.Exe, W.ExeLen);
  W.Out->Append(BuildId, BuildIdLen);
  W.Out->Append(U.nodename, HostLen);
}

void WriteProcessSection(ProfileWriter &W) {
  W.Section(raw::SK_Process, [&] { WriteProcess(W); });
}
} // namespace

const Collector kProcessCollector = {
    .Name = "process",
    .Order = 10,
    .WriteSections = WriteProcessSection,
};
AT_REGISTER_COLLECTOR(kProcessCollector);

} // namespace __activetime

using namespace __activetime;

extern "C" int __activetime_write_profile(void) {
  EnsureInit();
  return WriteProfile() ? 0 : -1;
}
