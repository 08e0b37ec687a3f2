//===- activetime_helper.cpp - Measurements in a helper process -*- C++ -*-===//
//
// See activetime_helper.h.
//
//===----------------------------------------------------------------------===//

#include "activetime_helper.h"
#include "activetime_codesamples.h"
#include "activetime_flags.h"
#include "activetime_internal.h"
#include "activetime_thread.h"
#include "activetime_timer.h"
#include "activetime_tsan.h"

#include "sanitizer_common/sanitizer_linux.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/single_threaded.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace __activetime {

namespace {
HelperFigures *page; // MAP_SHARED with the helper
int helper_pid;      // 0: none (a fork child forgets its parent's)

// The child: measures, writes, exits. It runs only the runtime's code and
// raw system calls (glibc's state is a copy it must not rely on), with every
// signal blocked (a terminal's ^C reaches the whole process group; the
// program's handlers must not run here), and dies with its parent.
[[noreturn]] void HelperMain(int Parent, bool Table, bool Cost) {
  internal_prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (int(internal_getppid()) != Parent)
    internal__exit(0);
  internal_prctl(PR_SET_NAME, uptr("at-measure"), 0, 0, 0);
  // Its probe gate page was wiped (MADV_WIPEONFORK): the calibration's
  // probes must run as in the program.
  __atomic_store_n(&probe_gate.State, kGateOurs, __ATOMIC_RELEASE);
  if (Table) {
    page->TickStep256 = MeasureTickStep256();
    page->HasTable = CalibrateOverhead(&page->Table);
  }
  __atomic_store_n(&page->TableDone, 1u, __ATOMIC_RELEASE);
  if (Cost) {
    page->Cost256 = MeasureCodeSampleCostHere();
    page->HasCost = 1;
  }
  __atomic_store_n(&page->Done, 1u, __ATOMIC_RELEASE);
  __atomic_store_n(&page->Ready, 1ull, __ATOMIC_RELEASE);
  internal__exit(0);
}

// Reaps the helper if it has ended (Block: waits for it); true if it had.
bool Reap(bool Block) {
  int Status;
  int Saved = errno; // the program's
  pid_t R = waitpid(helper_pid, &Status, __WALL | (Block ? 0 : WNOHANG));
  errno = Saved;
  if (R == 0)
    return false;
  helper_pid = 0; // ended (or reaped by the program's own __WALL wait)
  return true;
}
} // namespace

bool HelperProcessUsable() {
#if ACTIVETIME_TSAN
  return false;
#else
  return __libc_single_threaded;
#endif
}

bool StartHelperProcess(bool Table, bool Cost) {
  if (helper_pid || !HelperProcessUsable())
    return false;
  // A seccomp filter may allow threads but kill a process that forks.
  if (internal_prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 0 || !MapHelperPage())
    return false;
  internal_memset(page, 0, sizeof(*page));
  int Parent = int(internal_getpid());
  __sanitizer_sigset_t All, Old;
  internal_sigfillset(&All);
  internal_sigprocmask(SIG_SETMASK, &All, &Old);
  int Saved = errno;
  // fork() without glibc: no atfork handlers, no SIGCHLD, a copy of the
  // address space in which only the runtime's code runs.
  long R = syscall(SYS_clone, 0L, 0L, 0L, 0L, 0L);
  if (R == 0)
    HelperMain(Parent, Table, Cost);
  errno = Saved;
  internal_sigprocmask(SIG_SETMASK, &Old, nullptr);
  if (R < 0) {
    VLog(1, "cannot start the measuring helper process: measuring on a "
            "runtime thread");
    return false;
  }
  helper_pid = int(R);
  return true;
}

HelperStatus PollHelperProcess(HelperFigures *Out) {
  internal_memset(Out, 0, sizeof(*Out));
  if (!page || !helper_pid)
    return HS_None;
  // Ended (its last write may have come just before): reaped either way.
  bool Ended = Reap(/*Block=*/false);
  u32 Done = __atomic_load_n(&page->Done, __ATOMIC_ACQUIRE);
  u32 TableDone = __atomic_load_n(&page->TableDone, __ATOMIC_ACQUIRE);
  *Out = *page; // the parts whose flags were read set are complete
  Out->Done = Done;
  Out->TableDone = TableDone;
  if (Done && !Ended)
    Reap(/*Block=*/true); // it exits right after writing
  if (Done)
    return HS_Done;
  return Ended ? HS_Failed : HS_Running;
}

void StopHelperProcess() {
  if (!helper_pid)
    return;
  int Saved = errno;
  kill(helper_pid, SIGKILL);
  errno = Saved;
  Reap(/*Block=*/true);
}

bool MapHelperPage() {
  if (page)
    return true;
  uptr P = internal_mmap(nullptr, GetPageSizeCached(), PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (internal_iserror(P))
    return false;
  page = (HelperFigures *)P;
  return true;
}

const volatile u64 *HelperReadyWord() {
  return page ? &page->Ready : &kNoSampleRing;
}

void ForgetHelperProcess() {
  helper_pid = 0;
  if (!page)
    return;
  // Shared with the parent: a fresh page of the child's own in its place
  // (zero), which its own helper will share.
  uptr P = internal_mmap(page, GetPageSizeCached(), PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (!internal_iserror(P))
    return;
  // Kept mapped whatever happens: threads may be reading its Ready.
  P = internal_mmap(page, GetPageSizeCached(), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (internal_iserror(P))
    Die();
  page = nullptr; // a new helper maps a page of its own
}

} // namespace __activetime
