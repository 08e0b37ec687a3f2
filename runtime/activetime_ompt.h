//===- activetime_ompt.h - OpenMP worker-state analysis ---------*- C++ -*-===//
//
// Part of ActiveTime. The OMPT tool of the OpenMP worker-state diagnosis: per
// thread and per parallel region, the U/L/G/W state machine's times and
// transition counters.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_OMPT_H
#define ACTIVETIME_OMPT_H

#include "activetime/raw_format.h"
#include "activetime_internal.h"

namespace __activetime {

constexpr u32 kMaxRegionsPerThread = 128;
constexpr u32 kMaxResumeDepth = 32;
constexpr u32 kMaxRegionNesting = 8;

constexpr u32 kInstanceRing = 64;

// One instance of a parallel region, owned by the thread that forked it and
// reached by the team through the region's ompt_data_t. The forking thread
// reuses the record kInstanceRing forks later; a worker's late events (libomp
// delivers a worker's barrier end and implicit-task end when it next wakes)
// come long before that.
struct InstanceRec {
  uptr CodePtr;
  atomic_uint64_t EndTick; // parallel_end on the forking thread; 0 before
};

// One thread's counters in one parallel region (all its instances).
struct RegionSlot {
  uptr CodePtr; // return address of the fork call
  u64 Instances;
  u64 WallTicks;
  u32 MaxWorkers;
  activetime::raw::RegionThreadRecord Rec;
};

// Per thread, allocated at the thread's first OMPT event and never freed
// (the writer reads it at exit); only its own thread writes it.
struct OmptThread {
  OmptThread *Next;
  u64 Tid;
  u32 Id;        // 1-based, stored in the task data of created tasks
  u32 NumSlots;
  u64 Lost;
  // Current region (innermost) and the state machine.
  RegionSlot *Cur;
  u32 State;     // WorkerState, valid while Cur
  u64 Since;     // tick the state was entered
  u32 NestDepth;
  u32 StaticLoop; // the current worksharing loop is statically scheduled
  InstanceRec *CurInst;
  RegionSlot *NestSlot[kMaxRegionNesting];
  InstanceRec *NestInst[kMaxRegionNesting];
  u32 NestState[kMaxRegionNesting];
  // State to return to when a task finishes (the task started from W or U).
  u32 ResumeDepth;
  u8 Resume[kMaxResumeDepth];
  u64 ForkTick[kMaxRegionNesting]; // parallel_begin tick on the forking thread
  u32 ForkDepth;
  u32 NextInst;
  InstanceRec Inst[kInstanceRing];
  RegionSlot Slots[kMaxRegionsPerThread];
};

// Status of the OpenMP analysis for the raw file (OmpStatus).
u32 OmptStatus();
OmptThread *OmptThreadList();
u64 OmptLostEvents();
void OmptAfterForkChild(); // zeroes every count: the child starts afresh
// Slot I of T's record as of Now: the interval of the state it is in (if the
// slot is its current region) is included, up to the instance's end.
void OmptSnapshot(const OmptThread *T, u32 I, u64 Now,
                  activetime::raw::RegionThreadRecord *Out);

} // namespace __activetime

#endif // ACTIVETIME_OMPT_H
