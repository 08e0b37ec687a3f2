//===- activetime_switch.h - Context-switch sources -------------*- C++ -*-===//
//
// Where a thread's switched-out intervals come from (active time's second
// input), chosen per thread at thread init by switch_source:
//
//  perf     perf_event_open(PERF_COUNT_SW_DUMMY, context_switch=1) on the
//           thread's tid, user-only (works at perf_event_paranoid 2), with a
//           mmap'd ring of PERF_RECORD_SWITCH records. The probes compare the
//           ring's data_head with the last head they consumed (one load);
//           the slow path parses the new records.
//  cpuclock CLOCK_THREAD_CPUTIME_ID read when a probe's tick reaches
//           NextCheckTick (every cpuclock_check_us of wall time): the wall
//           time since the last check that the CPU clock did not see is
//           charged as off-CPU time. No switch counts.
//  none     off-CPU time is not measured.
//
// Pending rule: a probe reads its tick first and checks the ring after. The
// thread was running at that tick, so the part of an interval [out, in] after
// it (the thread was switched out inside the probe, or the perf clock and the
// tick counter disagree slightly) belongs to the frames open AFTER the probe
// (at entry: including the frame being entered; at exit: excluding the frame
// being left). That part is kept pending and charged at the next probe, so
// every frame is charged exactly the part of each interval between its entry
// and exit ticks, as the offline method clips it.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_SWITCH_H
#define ACTIVETIME_SWITCH_H

#include "activetime_perf_ring.h"
#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {
using namespace __sanitizer;

struct ThreadTls;
struct ThreadState;

enum PerfTimeConv : u32 {
  PTC_TimeZero = 0, // cap_user_time_zero: exact inverse of the page's formula
  PTC_ClockRaw = 1, // use_clockid=CLOCK_MONOTONIC_RAW, mapped through a
                    // (tick, raw ns) pair read at each drain
};

struct SwitchState {
  u32 Source;          // raw::SwitchSource
  u32 Conv;            // PerfTimeConv
  PerfRing Ring;       // perf: the thread's PERF_RECORD_SWITCH ring
  u64 TimeZero;        // PTC_TimeZero parameters
  u32 TimeMult;
  u32 TimeShift;
  // An unmatched switch-out seen so far (its switch-in not yet read).
  u64 OpenOut;
  u32 HaveOpen;
  u32 OpenPreempt;
  // Intervals starting at or after the tick of the probe that read them.
  u64 PendOff;
  u64 PendSw;
  u64 PendFirstOut;
  u32 PendCount;
  u32 Seen;            // a PERF_RECORD_SWITCH was read from the ring
  u64 Lost;            // PERF_RECORD_LOST: records the kernel dropped
  // A ring opened late (perf_after_us): the CPU clock charged the thread's
  // switched-out time up to this tick, read after the ring was enabled;
  // the records' part before it is dropped, so that an interval is charged
  // once. 0 for a ring opened at thread start. A late ring's first record
  // may be a switch-in: the thread was off CPU when the ring was enabled
  // (another thread enabled it), and has been since before From.
  u64 From;
  // A ring the drainer opened for the thread: a tick read after it was
  // enabled, and the thread's CPU time read just before that tick (0, 0:
  // not read), where the thread's CPU-clock windows end when it adopts the
  // ring. The records after it are then charged however late it does.
  u64 LateTick;
  u64 LateCpuNs;
  // cpuclock
  u64 Resolution;      // check interval in ticks
  u64 LastWall;        // tick of the last check
  u64 LastCpuNs;       // thread CPU time at the last check
};

// Inverse of the perf mmap page's TSC -> perf time conversion. The kernel
// computes (perf_event_mmap_page docs, cap_user_time_zero):
//   quot = tsc >> time_shift; rem = tsc & ((1 << time_shift) - 1);
//   time = time_zero + quot * time_mult + ((rem * time_mult) >> time_shift)
// i.e. time = time_zero + floor(tsc * time_mult / 2^time_shift) (the quot/rem
// split only avoids overflow; it is exact). Hence
//   tick = floor(((time - time_zero) << time_shift) / time_mult)
// evaluated in 128 bits (equivalently quot/rem of time - time_zero by
// time_mult). A time before time_zero maps to 0.
u64 PerfTimeToTick(u64 Time, u64 TimeZero, u32 TimeMult, u32 TimeShift);

// Maps a CLOCK_MONOTONIC_RAW time (ns) to a tick through the pair
// (AnchorTick, AnchorNs) and the rate (ticks per second).
u64 RawNsToTick(u64 Ns, u64 AnchorTick, u64 AnchorNs, u64 Rate);

// Parses the records between S.Tail and the ring's data_head (acquire), at
// the probe tick Now: charges completed intervals that started before Now to
// T.Off / T.Sw, keeps later ones pending (flushed first at the next call),
// counts LOST records, stores data_tail (release) and T.SwitchTailSeen.
// Records that wrap around the ring's end are reassembled.
void DrainPerfRing(ThreadTls &T, SwitchState &S, u64 Now);

// cpuclock arithmetic: the off-CPU ticks in the window since the previous
// check, given this check's tick and thread CPU time and the tick rate
// (ticks per second). Updates the state's last check; never negative.
u64 CpuClockStep(SwitchState &S, u64 NowTick, u64 CpuNs, u64 Rate);

// What a thread's switch source has seen but not charged to its counters
// yet, as of one of its probe boundaries (the profile writer copies it for
// another live thread together with the counters, under its seqlock).
struct SwitchSnapshot {
  u32 Source;     // raw::SwitchSource
  u32 HaveOpen;   // perf: a switch-out read without its switch-in
  u32 Seen;       // perf: SwitchState::Seen
  u64 OpenOut;
  u64 RingTail;   // perf: the records before it are in the counters
  u64 PendOff;    // intervals read but kept for the next probe
  u64 PendSw;
  u64 LastWall;   // cpuclock: the last check
  u64 LastCpuNs;
  u64 From;       // perf: SwitchState::From
};
SwitchSnapshot SnapshotSwitch(const SwitchState &S);

// The switched-out ticks and switches of live thread TS (not the caller)
// between the probe boundary of Snap and EndTick, which its counters do not
// hold: the intervals it kept pending, those whose records it has not read
// (the ring is read, not consumed; an interval still open ends at EndTick:
// a thread blocked while the profile is written is off CPU until then) and,
// for cpuclock, the wall time since its last check that its CPU clock did
// not see. Registry lock held (the thread cannot close its ring).
void UnchargedSwitchedOut(const ThreadState *TS, const SwitchSnapshot &Snap,
                          u64 EndTick, u64 *Off, u64 *Sw);

// perf_after_us, the code-sample drainer's side (activetime_codesamples.h).
// Opens a context-switch ring on thread Tid into S (its Ring and time
// conversion); no lock held. Returns null, or why it could not.
const char *OpenSwitchRingFor(SwitchState &S, u64 Tid);
// Registry lock and TS's ring lock held: gives that ring (or the reason it
// has none, Why) to TS, with the thread's CPU time read now
// (SwitchState::LateTick). Its source stays its CPU clock until it adopts
// the ring at a probe, or as it finishes (AdoptLateSwitchSource,
// activetime_thread.h).
void InstallLateSwitchRing(ThreadState *TS, SwitchState &S, const char *Why);

// Testing: makes the calling thread (initialized if needed) consume perf
// records from a caller-provided perf_event_mmap_page image (data_offset and
// data_size set by the caller; time conversion from time_zero/mult/shift).
void InstallSwitchRingForTesting(void *Page);
// Testing: detaches such a ring (the thread's source becomes none).
void RemoveSwitchRingForTesting();

} // namespace __activetime

#endif // ACTIVETIME_SWITCH_H
