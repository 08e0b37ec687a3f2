//===- activetime_perf_ring.h - perf_event rings ----------------*- C++ -*-===//
//
// The perf_event_open rings the runtime reads: each thread's context-switch
// ring (activetime_switch.h), its code-sample ring (activetime_codesamples.h)
// and the one the code samples' cost is measured with. Opening, mapping,
// walking the records between the consumed tail and the kernel's head (a
// record may wrap around the ring's end), the record layouts the runtime
// asks for, and closing. Slow paths only: the probes compare a ring's
// data_head with the head they last consumed and call in here when it moved.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PERF_RING_H
#define ACTIVETIME_PERF_RING_H

#include "sanitizer_common/sanitizer_internal_defs.h"

#include <linux/perf_event.h>

namespace __activetime {
using namespace __sanitizer;

// A ring: one perf_event_mmap_page followed by a power-of-two data area.
struct PerfRing {
  int Fd;         // perf event fd, -1 if none
  u32 Unused;
  char *Page;     // perf_event_mmap_page
  uptr MapBytes;  // 0 for a ring not mapped by us (tests)
  char *Data;
  u64 DataMask;   // data size - 1 (a power of two)
  u64 Tail;       // consumed up to here (== the page's data_tail)

  perf_event_mmap_page *Header() const { return (perf_event_mmap_page *)Page; }
  // What the probes compare with the head they last consumed.
  const volatile u64 *HeadWord() const {
    return (const volatile u64 *)&Header()->data_head;
  }
  // The kernel's head, acquire: the records before it are complete.
  u64 LoadHead() const {
    return __atomic_load_n(&Header()->data_head, __ATOMIC_ACQUIRE);
  }
};

// perf_event_open(A) on thread Tid (close-on-exec); -1 if refused (also
// whenever perf_deny=1, as when perf_event_paranoid forbids it), kOverBudget
// if the runtime's descriptors would exceed their budget: an eighth of the
// soft RLIMIT_NOFILE, so that the program keeps the rest (a thread holds
// one or two; a program with many threads near its own limit would
// otherwise fail its opens).
constexpr int kOverBudget = -2;
int PerfEventOpen(perf_event_attr *A, u64 Tid);
// Closes a descriptor PerfEventOpen returned, giving back its budget.
void ClosePerfFd(int Fd);

// PERF_EVENT_IOC_ENABLE on an event opened disabled; false if refused.
bool EnablePerfFd(int Fd);

// Maps Fd's ring with DataPages data pages (a power of two) into R, which
// takes Fd over: on failure Fd is closed and R left empty (false).
bool MapPerfRing(PerfRing &R, int Fd, uptr DataPages);

// Unmaps the ring (if mapped by us) and closes its fd; R is left empty.
void ClosePerfRing(PerfRing &R);
// A ring the process inherited (a fork child, or a process clone() made
// without the fork handlers): closes the descriptor's copy and leaves the
// mapping alone, which is not this process's. perf mappings are not copied
// into a child (VM_DONTCOPY), so the address may already hold one of the
// child's own rings (unmapping it took a new switch ring from under its
// thread: SIGBUS); under CLONE_VM it is the parent's, still in use.
void ForgetInheritedPerfRing(PerfRing &R);

// Marks the records before Tail consumed: R.Tail and the page's data_tail
// (release: the kernel may then overwrite them).
void ConsumePerfRing(PerfRing &R, u64 Tail);

// A record's body (the bytes after its perf_event_header), read in place.
struct PerfRecord {
  u32 Type;   // perf_event_header.type
  u16 Misc;   // perf_event_header.misc
  u16 Unused;
  const char *Data; // the ring's data area
  u64 Mask;
  u64 Pos;    // ring position of the body's first byte
  u64 Size;   // bytes in the body
  // The little-endian word at byte Off of the body (Off + 8 <= Size).
  u64 Word(u64 Off) const {
    u64 W = 0;
    for (u64 I = 0; I < 8; ++I)
      W |= u64(u8(Data[(Pos + Off + I) & Mask])) << (8 * I);
    return W;
  }
};

// Walks the records in [Tail, Head) of a ring's data area. Next stops at
// the head, or before a record whose size cannot be right (the kernel
// overwrote it under a reader that is not the ring's consumer, or it is
// corrupt); Tail is then the position it stopped at.
struct PerfRecordWalk {
  const char *Data;
  u64 Mask;
  u64 Tail;
  u64 Head;
  PerfRecordWalk(const PerfRing &R, u64 Tail, u64 Head)
      : Data(R.Data), Mask(R.DataMask), Tail(Tail), Head(Head) {}
  bool Next(PerfRecord *Rec);
  // Whether Next stopped at the head (not before a bad record).
  bool Done() const { return Head - Tail < sizeof(perf_event_header); }
};

// The record layouts the runtime's events ask for.
// PERF_RECORD_SWITCH with sample_id_all and PERF_SAMPLE_TID|PERF_SAMPLE_TIME:
// u32 pid, tid; u64 time. False if the record is too short.
inline bool SwitchRecordTime(const PerfRecord &R, u64 *Time) {
  if (R.Size < 16)
    return false;
  *Time = R.Word(8);
  return true;
}
// PERF_RECORD_LOST: u64 id, lost. 0 if the record is too short.
inline u64 LostRecordCount(const PerfRecord &R) {
  return R.Size >= 16 ? R.Word(8) : 0;
}

} // namespace __activetime

#endif // ACTIVETIME_PERF_RING_H
