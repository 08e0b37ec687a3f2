//===- activetime_flusher.cpp - Profiles of programs that do not exit -----===//
//
// Part of ActiveTime. See activetime_flusher.h.
//
// A handler wakes the flusher and waits for the write (at most
// flush_wait_ms), then does what the signal would have done without
// ActiveTime: the handler installed before ours, or the default action (the
// program ends with the signal's status). Other threads run on meanwhile,
// read as for a mid-run activetime_flush(). A stop signal (SIGTERM, SIGINT,
// SIGHUP) that lands inside a probe cannot wait there (the write would read
// the probe's half-made changes): its handler returns at once so the probe
// finishes, and the flusher re-sends the signal to that thread after the
// write. A crash inside a probe gets no write.
//
//===----------------------------------------------------------------------===//

#include "activetime_flusher.h"

#include "activetime_flags.h"
#include "activetime_internal.h"
#include "activetime_thread.h"
#include "activetime_worker.h"
#include "activetime_writer.h"

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace __activetime {

namespace {

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kMaxSlots = 8;
constexpr u64 kNsPerSec = 1000000000ull;

struct SignalSlot {
  int Sig;
  bool Crash;
  struct sigaction Prev; // the action ours replaced: what the signal does next
  u32 Pending;           // a stop signal waits for its write
  u32 ChainArmed;        // the next delivery takes the signal's course
  u32 Tid;               // the thread it was delivered to
  siginfo_t Info;        // as delivered, handed to the chained handler
};

struct FlusherState {
  WorkerThread W;
  bool Enabled;
  u32 Requests;  // futex: writes asked for so far
  u32 Done;      // futex: the Requests value the last finished write saw
  u32 CrashSeen; // a fatal signal arrived: at most one write for crashes
  u32 Ending;    // a stop signal's default action is on its way: no writes
  // The exit-time profile is written (or was not to be): a stop signal
  // takes its course at once, one deferred meanwhile has been re-sent.
  u32 ExitWritten;
  u32 InHandler; // stop signal handlers running now, on any thread
  SignalSlot Slots[kMaxSlots];
  int NumSlots;
};
FlusherState flusher;
// Stop signal handlers running on this thread (one can chain to a handler
// of the program's that calls exit()).
THREADLOCAL u32 in_stop_handler;

long Futex(u32 *Word, int Op, u32 Val, const struct timespec *Abs) {
  return syscall(SYS_futex, Word, Op | FUTEX_PRIVATE_FLAG, Val, Abs, nullptr,
                 FUTEX_BITSET_MATCH_ANY);
}

// Waits while *Word == Seen, until DeadlineNs (CLOCK_MONOTONIC; 0: none).
void WaitWhile(u32 *Word, u32 Seen, u64 DeadlineNs) {
  struct timespec Abs;
  Abs.tv_sec = DeadlineNs / kNsPerSec;
  Abs.tv_nsec = DeadlineNs % kNsPerSec;
  Futex(Word, FUTEX_WAIT_BITSET, Seen, DeadlineNs ? &Abs : nullptr);
}

void Wake(u32 *Word) { Futex(Word, FUTEX_WAKE, ~0u >> 1, nullptr); }

// Signal-safe: an atomic add and a futex wake. Returns the request's ticket.
u32 RequestFlush() {
  u32 Ticket = __atomic_add_fetch(&flusher.Requests, 1, __ATOMIC_SEQ_CST);
  Wake(&flusher.Requests);
  return Ticket;
}

bool Covered(u32 Ticket) {
  return s32(__atomic_load_n(&flusher.Done, __ATOMIC_ACQUIRE) - Ticket) >= 0;
}

// Signal-safe: futex waits until a write that began after the ticket's
// request has finished, or the deadline.
void WaitForFlush(u32 Ticket, u64 TimeoutMs) {
  u64 Deadline = MonotonicNs() + TimeoutMs * 1000000ull;
  while (!Covered(Ticket) && MonotonicNs() < Deadline)
    WaitWhile(&flusher.Done, __atomic_load_n(&flusher.Done, __ATOMIC_ACQUIRE),
              Deadline);
}

SignalSlot *SlotOf(int Sig) {
  for (int I = 0; I < flusher.NumSlots; ++I)
    if (flusher.Slots[I].Sig == Sig)
      return &flusher.Slots[I];
  return nullptr;
}

bool IsDefault(const struct sigaction &A) {
  return !(A.sa_flags & SA_SIGINFO) && A.sa_handler == SIG_DFL;
}

// Signal-safe (sigaction, unlike signal(), is).
void SetDefault(int Sig) {
  struct sigaction Dfl;
  internal_memset(&Dfl, 0, sizeof(Dfl));
  Dfl.sa_handler = SIG_DFL;
  sigaction(Sig, &Dfl, nullptr);
}

// Signal-safe: Sig to the calling thread. Blocked while the handler runs,
// it is delivered as the handler returns, meeting the action now installed.
void ResendToSelf(int Sig) {
  syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), Sig);
}

// Runs the handler ours replaced, if it was one (false: SIG_DFL, SIG_IGN).
bool CallPrevious(const SignalSlot *S, siginfo_t *Info, void *Ctx) {
  const struct sigaction &P = S->Prev;
  if (P.sa_flags & SA_SIGINFO)
    P.sa_sigaction(S->Sig, Info, Ctx);
  else if (P.sa_handler != SIG_DFL && P.sa_handler != SIG_IGN)
    P.sa_handler(S->Sig);
  else
    return false;
  return true;
}

// What the signal does without ActiveTime's handler: the previous handler,
// nothing (ignored) or the default action, taken by re-sending the signal
// with SIG_DFL installed.
void TakeCourse(SignalSlot *S, siginfo_t *Info, void *Ctx) {
  if (S->Prev.sa_flags & SA_RESETHAND)
    SetDefault(S->Sig);
  if (!CallPrevious(S, Info, Ctx) && IsDefault(S->Prev)) {
    SetDefault(S->Sig);
    ResendToSelf(S->Sig);
  }
}

// Waiting for the write is safe unless the thread is inside a probe or the
// writer (Seq odd): the write would read its half-made changes. A lock the
// thread holds (a dlopen, a thread start) only delays the write, and the
// wait is bounded.
bool CanWaitHere() {
  return flusher.W.Running && !(at_tls.Seq & 1) &&
         !__atomic_load_n(&flusher.Ending, __ATOMIC_ACQUIRE);
}

void TakeCourseAfterWrite(SignalSlot *S, siginfo_t *Info, void *Ctx) {
  if (IsDefault(S->Prev)) // no write must start that the signal would tear
    __atomic_store_n(&flusher.Ending, 1, __ATOMIC_RELEASE);
  TakeCourse(S, Info, Ctx);
}

void ReleaseStopSignals();

void HandleStopSignal(int Sig, siginfo_t *Info, void *Ctx);

void OnStopSignal(int Sig, siginfo_t *Info, void *Ctx) {
  __atomic_fetch_add(&flusher.InHandler, 1, __ATOMIC_SEQ_CST);
  ++in_stop_handler;
  HandleStopSignal(Sig, Info, Ctx);
  --in_stop_handler;
  __atomic_fetch_sub(&flusher.InHandler, 1, __ATOMIC_SEQ_CST);
}

void HandleStopSignal(int Sig, siginfo_t *Info, void *Ctx) {
  int SavedErrno = errno;
  SignalSlot *S = SlotOf(Sig);
  if (__atomic_exchange_n(&S->ChainArmed, 0, __ATOMIC_ACQ_REL)) {
    // A deferred signal, re-sent now that its profile is written.
    TakeCourse(S, &S->Info, Ctx);
    __atomic_store_n(&S->Pending, 0, __ATOMIC_RELEASE);
  } else if (__atomic_load_n(&flusher.ExitWritten, __ATOMIC_ACQUIRE)) {
    TakeCourse(S, Info, Ctx); // nothing left to write
  } else if (CanWaitHere()) {
    // A second copy (timeout(1) signals the child, then its group) waits
    // for the same write; the signal is blocked meanwhile on this thread.
    WaitForFlush(RequestFlush(), (u64)flags()->flush_wait_ms);
    TakeCourseAfterWrite(S, Info, Ctx);
  } else if (!__atomic_exchange_n(&S->Pending, 1, __ATOMIC_ACQ_REL)) {
    // Inside a probe: the program must run on to finish it. The flusher
    // re-sends the signal to this thread after the write.
    internal_memcpy(&S->Info, Info, sizeof(*Info));
    S->Tid = (u32)syscall(SYS_gettid);
    RequestFlush();
    // No flusher any more (the program is exiting): the exit-time write
    // re-sends it, unless it has just finished.
    if (__atomic_load_n(&flusher.ExitWritten, __ATOMIC_SEQ_CST))
      ReleaseStopSignals();
  }
  // else: deferred already; like a pending standard signal, one delivery.
  errno = SavedErrno;
}

void OnCrashSignal(int Sig, siginfo_t *Info, void *Ctx) {
  int SavedErrno = errno;
  SignalSlot *S = SlotOf(Sig);
  if (!__atomic_exchange_n(&flusher.CrashSeen, 1, __ATOMIC_ACQ_REL) &&
      CanWaitHere())
    WaitForFlush(RequestFlush(), (u64)flags()->flush_wait_ms);
  sigaction(Sig, &S->Prev, nullptr);
  if (!CallPrevious(S, Info, Ctx) && Info->si_code <= 0)
    ResendToSelf(Sig); // sent (kill, abort), not a fault
  // A fault returns to the faulting instruction, which now meets the
  // previous action.
  errno = SavedErrno;
}

void Install(int Sig, bool Crash) {
  struct sigaction Prev;
  if (sigaction(Sig, nullptr, &Prev) != 0 ||
      (!(Prev.sa_flags & SA_SIGINFO) && Prev.sa_handler == SIG_IGN))
    return; // the program ignores it (nohup): keep ignoring
  struct sigaction Act;
  internal_memset(&Act, 0, sizeof(Act));
  Act.sa_sigaction = Crash ? OnCrashSignal : OnStopSignal;
  // A deferred stop signal lets the program run on: its interrupted calls
  // restart as they would have under its own handler's flags.
  int Restart = IsDefault(Prev) ? SA_RESTART : (Prev.sa_flags & SA_RESTART);
  Act.sa_flags = SA_SIGINFO | SA_ONSTACK | (Crash ? 0 : Restart);
  sigemptyset(&Act.sa_mask);
  SignalSlot &S = flusher.Slots[flusher.NumSlots];
  internal_memset(&S, 0, sizeof(S));
  S.Sig = Sig;
  S.Crash = Crash;
  S.Prev = Prev;
  ++flusher.NumSlots; // before the handler can run and look it up
  if (sigaction(Sig, &Act, nullptr) != 0)
    --flusher.NumSlots;
}

// After a write: each stop signal that waited for it now takes its course
// on the thread it was delivered to (any thread, if that one has exited).
void ReleaseStopSignals() {
  for (int I = 0; I < flusher.NumSlots; ++I) {
    SignalSlot &S = flusher.Slots[I];
    if (S.Crash || !__atomic_load_n(&S.Pending, __ATOMIC_ACQUIRE) ||
        __atomic_exchange_n(&S.ChainArmed, 1, __ATOMIC_ACQ_REL))
      continue;
    if (IsDefault(S.Prev))
      __atomic_store_n(&flusher.Ending, 1, __ATOMIC_RELEASE);
    if (syscall(SYS_tgkill, getpid(), S.Tid, S.Sig) != 0)
      kill(getpid(), S.Sig);
  }
}

void WriteSnapshot(u32 Seen) {
  // After an MPI job's reduction the rank's profile is in the job's: a
  // snapshot now would bring back the rank's own file, ending later.
  if (!__atomic_load_n(&flusher.Ending, __ATOMIC_ACQUIRE) &&
      !ProfileHandedOff())
    WriteProfile();
  __atomic_store_n(&flusher.Done, Seen, __ATOMIC_RELEASE);
  Wake(&flusher.Done);
  ReleaseStopSignals();
}

void *FlusherMain(void *) {
  u64 Period = u64(flags()->flush_interval_s) * kNsPerSec;
  u64 Next = Period ? MonotonicNs() + Period : 0;
  u32 Seen = 0;
  while (!StopRequested(flusher.W)) {
    u32 Now = __atomic_load_n(&flusher.Requests, __ATOMIC_ACQUIRE);
    if (Now == Seen && (!Period || MonotonicNs() < Next)) {
      WaitWhile(&flusher.Requests, Seen, Next);
      continue;
    }
    Seen = Now;
    WriteSnapshot(Seen);
    if (Period)
      Next = MonotonicNs() + Period;
  }
  return nullptr;
}

void Launch() {
  flusher.Requests = flusher.Done = flusher.CrashSeen = flusher.Ending = 0;
  flusher.ExitWritten = 0;
  if (int R = StartWorker(flusher.W, FlusherMain))
    Printf("ActiveTime: WARNING: cannot start the profile flusher thread "
           "(error %d): flush_on_signal, flush_on_crash and flush_interval_s "
           "have no effect\n",
           R);
}

} // namespace

void StartFlusher() {
  const Flags &F = *flags();
  flusher.Enabled = F.flush_on_signal || F.flush_on_crash || F.flush_interval_s;
  if (!flusher.Enabled)
    return;
  if (F.flush_on_signal)
    for (int Sig : kStopSignals)
      Install(Sig, false);
  if (F.flush_on_crash)
    for (int Sig : kCrashSignals)
      Install(Sig, true);
  Launch();
}

void StopFlusher() {
  if (!flusher.W.Running)
    return;
  __atomic_store_n(&flusher.W.StopWord, 1, __ATOMIC_RELEASE);
  RequestFlush(); // wakes it; it sees the stop before writing
  pthread_join(flusher.W.Thread, nullptr);
  flusher.W.Running = 0;
}

void FinishFlusherAtExit() {
  if (!flusher.Enabled)
    return;
  __atomic_store_n(&flusher.ExitWritten, 1, __ATOMIC_SEQ_CST);
  // A handler that began waiting for a flush before the flusher stopped:
  // the exit write was that flush.
  __atomic_store_n(&flusher.Done,
                   __atomic_load_n(&flusher.Requests, __ATOMIC_SEQ_CST),
                   __ATOMIC_SEQ_CST);
  Wake(&flusher.Done);
  ReleaseStopSignals();
  // Such a handler on another thread is about to take its signal's course:
  // the program must end with the signal's status, not exit's.
  u64 Deadline = MonotonicNs() + u64(flags()->flush_wait_ms) * 1000000ull;
  while (__atomic_load_n(&flusher.InHandler, __ATOMIC_SEQ_CST) > in_stop_handler &&
         MonotonicNs() < Deadline)
    internal_sched_yield();
}

void FlusherAfterForkChild() {
  if (!flusher.Enabled)
    return;
  for (int I = 0; I < flusher.NumSlots; ++I) {
    flusher.Slots[I].Pending = 0;
    flusher.Slots[I].ChainArmed = 0;
  }
  flusher.W.Running = 0; // it did not survive the fork
  Launch();
}

} // namespace __activetime
