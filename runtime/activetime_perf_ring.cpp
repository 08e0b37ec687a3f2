//===- activetime_perf_ring.cpp - perf_event rings --------------*- C++ -*-===//
//
// See activetime_perf_ring.h.
//
//===----------------------------------------------------------------------===//

#include "activetime_perf_ring.h"

#include "activetime_flags.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace __activetime {

namespace {
atomic_uint32_t perf_fds;   // the runtime's open perf descriptors
atomic_uint32_t fd_budget;  // 0: not read yet; else budget + 1

u32 FdBudget() {
  u32 B = atomic_load(&fd_budget, memory_order_relaxed);
  if (B)
    return B - 1;
  struct rlimit L;
  u64 Soft = getrlimit(RLIMIT_NOFILE, &L) == 0 ? u64(L.rlim_cur) : 1024;
  B = u32(Min<u64>(Soft / 8, 1u << 20));
  atomic_store(&fd_budget, B + 1, memory_order_relaxed);
  return B;
}
} // namespace

int PerfEventOpen(perf_event_attr *A, u64 Tid) {
  if (flags()->perf_deny)
    return -1; // as perf_event_open returns when denied (EACCES)
  if (atomic_fetch_add(&perf_fds, 1, memory_order_relaxed) >= FdBudget()) {
    atomic_fetch_sub(&perf_fds, 1, memory_order_relaxed);
    return kOverBudget;
  }
  long Fd = syscall(SYS_perf_event_open, A, (pid_t)Tid, -1, -1,
                    PERF_FLAG_FD_CLOEXEC);
  if (Fd < 0) {
    atomic_fetch_sub(&perf_fds, 1, memory_order_relaxed);
    return -1;
  }
  return int(Fd);
}

void ClosePerfFd(int Fd) {
  if (Fd < 0)
    return;
  close(Fd);
  atomic_fetch_sub(&perf_fds, 1, memory_order_relaxed);
}

bool EnablePerfFd(int Fd) {
  return Fd >= 0 && ioctl(Fd, PERF_EVENT_IOC_ENABLE, 0) == 0;
}

bool MapPerfRing(PerfRing &R, int Fd, uptr DataPages) {
  internal_memset(&R, 0, sizeof(R));
  R.Fd = -1;
  uptr PS = GetPageSizeCached();
  uptr Bytes = (1 + DataPages) * PS;
  void *M = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (M == MAP_FAILED) {
    ClosePerfFd(Fd);
    return false;
  }
  perf_event_mmap_page *P = (perf_event_mmap_page *)M;
  R.Fd = Fd;
  R.Page = (char *)M;
  R.MapBytes = Bytes;
  R.Data = (char *)M + (P->data_offset ? P->data_offset : PS);
  R.DataMask = (P->data_size ? P->data_size : DataPages * PS) - 1;
  R.Tail = __atomic_load_n(&P->data_tail, __ATOMIC_RELAXED);
  return true;
}

void ClosePerfRing(PerfRing &R) {
  if (R.MapBytes)
    munmap(R.Page, R.MapBytes);
  ClosePerfFd(R.Fd);
  R.Page = R.Data = nullptr;
  R.MapBytes = 0;
  R.Fd = -1;
}

void ForgetInheritedPerfRing(PerfRing &R) {
  R.MapBytes = 0;
  ClosePerfRing(R);
}

void ConsumePerfRing(PerfRing &R, u64 Tail) {
  R.Tail = Tail;
  __atomic_store_n(&R.Header()->data_tail, Tail, __ATOMIC_RELEASE);
}

bool PerfRecordWalk::Next(PerfRecord *Rec) {
  perf_event_header H;
  if (Head - Tail < sizeof(H))
    return false;
  for (uptr I = 0; I < sizeof(H); ++I)
    ((char *)&H)[I] = Data[(Tail + I) & Mask];
  if (H.size < sizeof(H) || H.size > Head - Tail || H.size > Mask + 1)
    return false;
  Rec->Type = H.type;
  Rec->Misc = H.misc;
  Rec->Unused = 0;
  Rec->Data = Data;
  Rec->Mask = Mask;
  Rec->Pos = Tail + sizeof(H);
  Rec->Size = H.size - sizeof(H);
  Tail += H.size;
  return true;
}

} // namespace __activetime
