//===- activetime_ompt.cpp - OpenMP worker-state analysis -------*- C++ -*-===//
//
// Part of ActiveTime. Registers with LLVM's libomp as an OMPT tool and drives
// the OpenMP worker-state diagnosis's state machine (U user code, L local
// lookup, G global search, W waiting) per thread and per parallel region.
// docs/design.md has the mapping from OMPT callbacks to states; in short:
//
//   implicit task begin        enter the region in U
//   dispatch of a loop chunk   U->L->U (a chunk taken without searching; a
//                              dynamic/guided chunk also marks a shared pool)
//   task switch to a task      created here: ->L->U; by another thread: ->G->U
//                              (from U directly: U->U, the scheduler bypass)
//   task complete              U->L, then back to where the task was started
//                              from (W in a barrier, U in user code)
//   sync region wait begin/end ->L->W / W->U
//   implicit task end          leave the region
//
// Whether a wait followed a search of a shared pool (G->W) is decided by the
// tool, which sees whether the region had one at all (docs/design.md).
//
// Nothing here is shared between threads on the per-chunk / per-task path:
// each thread updates its own OmptThread. The task's creator id travels in
// the task's own ompt_data_t.
//
// When OMP_TOOL_LIBRARIES names another tool, LLVM's ompt-multiplex.h loads
// it and forwards every event to it as well, so ActiveTime does not hide it.
//
//===----------------------------------------------------------------------===//

#include "activetime_ompt.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_timer.h"
#include "activetime_writer.h"

#include <dlfcn.h>
#include <link.h>

#define CLIENT_TOOL_LIBRARIES_VAR "OMP_TOOL_LIBRARIES"
#define CLIENT_TOOL_VERBOSE_INIT_VAR "OMP_TOOL_VERBOSE_INIT"
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wall"
#pragma clang diagnostic ignored "-Wextra"
#pragma clang diagnostic ignored "-Wsign-compare"
#pragma clang diagnostic ignored "-Wmissing-field-initializers"
#include <ompt-multiplex.h>
#pragma clang diagnostic pop

namespace __activetime {

namespace raw = activetime::raw;

namespace {
atomic_uint32_t omp_status;   // OmpStatus
atomic_uint32_t next_thread_id;
atomic_uintptr_t thread_list; // OmptThread*, pushed once per thread
atomic_uint64_t lost_global;

THREADLOCAL OmptThread *omp_self;

NOINLINE OmptThread *CreateSelf() {
  uptr Size = RoundUpTo(sizeof(OmptThread), GetPageSizeCached());
  OmptThread *T = (OmptThread *)MmapOrDie(Size, "ActiveTime OMPT thread");
  T->Tid = GetTid();
  T->Id = atomic_fetch_add(&next_thread_id, 1, memory_order_relaxed) + 1;
  uptr Head = atomic_load(&thread_list, memory_order_relaxed);
  do {
    T->Next = (OmptThread *)Head;
  } while (!atomic_compare_exchange_weak(&thread_list, &Head, uptr(T),
                                         memory_order_release));
  omp_self = T;
  return T;
}

ALWAYS_INLINE OmptThread *Self() {
  OmptThread *T = omp_self;
  return LIKELY(T) ? T : CreateSelf();
}

RegionSlot *FindSlot(OmptThread *T, uptr CodePtr) {
  for (u32 I = 0; I < T->NumSlots; ++I)
    if (T->Slots[I].CodePtr == CodePtr)
      return &T->Slots[I];
  if (T->NumSlots == kMaxRegionsPerThread)
    return nullptr;
  RegionSlot *S = &T->Slots[T->NumSlots++];
  S->CodePtr = CodePtr;
  S->Rec.Tid = T->Tid;
  return S;
}

// End of the current state's interval at Now: no later than the end of the
// region instance (a worker's wait is reported ended only when it next wakes,
// possibly at the next fork).
ALWAYS_INLINE u64 IntervalEnd(const OmptThread *T, u64 Now) {
  if (!T->CurInst)
    return Now;
  u64 E = atomic_load(&T->CurInst->EndTick, memory_order_acquire);
  if (!E || E >= Now)
    return Now;
  return E > T->Since ? E : T->Since;
}

ALWAYS_INLINE void Account(OmptThread *T, u64 Now) {
  T->Cur->Rec.StateTicks[T->State] += IntervalEnd(T, Now) - T->Since;
}

// Moves the current region's state machine to To at Now.
ALWAYS_INLINE void Go(OmptThread *T, u32 To, u64 Now) {
  RegionSlot *S = T->Cur;
  Account(T, Now);
  S->Rec.Transitions[T->State][To]++;
  T->State = To;
  T->Since = Now;
}

// Work taken: a task or chunk begins. Stolen = created by another thread.
// A task of this thread started right from user code (undeferred, or run by
// its creator when its queue is full) bypasses the scheduler: U->U, not a
// take from the local queue.
void Take(OmptThread *T, bool Stolen, u64 Now) {
  RegionSlot *S = T->Cur;
  if (Stolen)
    S->Rec.StolenTakes++;
  if (T->State == raw::WS_User) {
    Go(T, raw::WS_User, Now);
    return;
  }
  if (!Stolen)
    S->Rec.LocalTakes++;
  u32 Via = Stolen ? raw::WS_Global : raw::WS_Local;
  if (T->State != Via)
    Go(T, Via, Now);
  Go(T, raw::WS_User, Now);
}

void EnterWait(OmptThread *T, u64 Now) {
  if (T->State == raw::WS_Wait)
    return;
  if (T->State != raw::WS_Local)
    Go(T, raw::WS_Local, Now);
  Go(T, raw::WS_Wait, Now);
  T->Cur->Rec.WaitEntries++;
}

void PushResume(OmptThread *T, u32 State) {
  if (T->ResumeDepth < kMaxResumeDepth)
    T->Resume[T->ResumeDepth] = u8(State);
  else
    T->Lost++;
  T->ResumeDepth++;
}

u32 PopResume(OmptThread *T) {
  if (T->ResumeDepth == 0)
    return raw::WS_User;
  --T->ResumeDepth;
  return T->ResumeDepth < kMaxResumeDepth ? T->Resume[T->ResumeDepth]
                                          : raw::WS_User;
}

// ---- OMPT callbacks -----------------------------------------------------

void OnParallelBegin(ompt_data_t *EncTask, const ompt_frame_t *EncFrame,
                     ompt_data_t *Parallel, unsigned Requested, int Flags,
                     const void *CodePtr) {
  OmptThread *T = Self();
  InstanceRec *I = &T->Inst[T->NextInst++ % kInstanceRing];
  I->CodePtr = uptr(CodePtr);
  atomic_store(&I->EndTick, 0, memory_order_relaxed);
  Parallel->ptr = I;
  if (T->ForkDepth < kMaxRegionNesting)
    T->ForkTick[T->ForkDepth] = ReadTick();
  T->ForkDepth++;
}

void OnParallelEnd(ompt_data_t *Parallel, ompt_data_t *EncTask, int Flags,
                   const void *CodePtr) {
  u64 Now = ReadTick();
  OmptThread *T = Self();
  if (Parallel && Parallel->ptr)
    atomic_store(&((InstanceRec *)Parallel->ptr)->EndTick, Now,
                 memory_order_release);
  if (T->ForkDepth == 0)
    return;
  --T->ForkDepth;
  RegionSlot *S = FindSlot(T, uptr(CodePtr));
  if (!S || T->ForkDepth >= kMaxRegionNesting) {
    T->Lost++;
    return;
  }
  S->Instances++;
  S->WallTicks += Now - T->ForkTick[T->ForkDepth];
}

void OnImplicitTask(ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel,
                    ompt_data_t *Task, unsigned ActualParallelism,
                    unsigned Index, int Flags) {
  if (Flags & ompt_task_initial)
    return;
  u64 Now = ReadTick();
  OmptThread *T = Self();
  if (Endpoint == ompt_scope_begin) {
    if (T->NestDepth >= kMaxRegionNesting) {
      T->NestDepth++;
      T->Lost++;
      return;
    }
    if (T->Cur) // nested region: suspend the outer one's state machine
      Account(T, Now);
    T->NestSlot[T->NestDepth] = T->Cur;
    T->NestInst[T->NestDepth] = T->CurInst;
    T->NestState[T->NestDepth] = T->State;
    T->NestDepth++;
    InstanceRec *I = Parallel ? (InstanceRec *)Parallel->ptr : nullptr;
    RegionSlot *S = I ? FindSlot(T, I->CodePtr) : nullptr;
    if (!S)
      T->Lost++;
    T->Cur = S;
    T->CurInst = S ? I : nullptr;
    T->State = raw::WS_User;
    T->Since = Now;
    T->ResumeDepth = 0;
    if (S && ActualParallelism > S->MaxWorkers)
      S->MaxWorkers = ActualParallelism;
    return;
  }
  if (T->NestDepth == 0)
    return;
  --T->NestDepth;
  if (T->NestDepth >= kMaxRegionNesting)
    return;
  if (T->Cur)
    Account(T, Now);
  T->Cur = T->NestSlot[T->NestDepth];
  T->CurInst = T->NestInst[T->NestDepth];
  T->State = T->NestState[T->NestDepth];
  T->Since = Now;
}

void OnWork(ompt_work_t Kind, ompt_scope_endpoint_t Endpoint,
            ompt_data_t *Parallel, ompt_data_t *Task, uint64_t Count,
            const void *CodePtr) {
  OmptThread *T = Self();
  if (!T->Cur || Endpoint != ompt_scope_begin)
    return;
  T->StaticLoop = Kind == ompt_work_loop_static || Kind == ompt_work_loop;
}

void OnDispatch(ompt_data_t *Parallel, ompt_data_t *Task, ompt_dispatch_t Kind,
                ompt_data_t Instance) {
  OmptThread *T = Self();
  if (!T->Cur || Kind != ompt_dispatch_ws_loop_chunk)
    return;
  u64 Now = ReadTick();
  // The previous chunk (or the code before the loop) is done: the next chunk
  // comes from the loop's iteration space without searching other threads.
  // A static block is the thread's own; dynamic/guided chunks come from the
  // loop's shared pool.
  if (T->State == raw::WS_User)
    Go(T, raw::WS_Local, Now);
  if (!T->StaticLoop)
    T->Cur->Rec.Chunks++;
  Take(T, false, Now);
}

void OnTaskCreate(ompt_data_t *EncTask, const ompt_frame_t *EncFrame,
                  ompt_data_t *NewTask, int Flags, int HasDeps,
                  const void *CodePtr) {
  if (!(Flags & ompt_task_explicit))
    return;
  OmptThread *T = Self();
  NewTask->value = T->Id;
  if (T->Cur)
    T->Cur->Rec.TasksCreated++;
}

bool Finished(ompt_task_status_t S) {
  return S == ompt_task_complete || S == ompt_task_cancel ||
         S == ompt_task_detach || S == ompt_task_late_fulfill;
}

void OnTaskSchedule(ompt_data_t *Prior, ompt_task_status_t PriorStatus,
                    ompt_data_t *Next) {
  OmptThread *T = Self();
  if (!T->Cur)
    return;
  u64 Now = ReadTick();
  bool NextIsExplicit = Next && Next->value != 0;
  if (Finished(PriorStatus) && Prior && Prior->value != 0) {
    u32 Back = PopResume(T);
    if (T->State != raw::WS_Local)
      Go(T, raw::WS_Local, Now); // U->L: look for the next task
    if (NextIsExplicit) {
      PushResume(T, Back);
      Take(T, Next->value != T->Id, Now);
      return;
    }
    if (Back == raw::WS_Wait)
      EnterWait(T, Now);
    else if (Back != T->State)
      Go(T, Back, Now);
    return;
  }
  if (NextIsExplicit) {
    PushResume(T, T->State);
    Take(T, Next->value != T->Id, Now);
  }
}

void OnSyncRegionWait(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
                      ompt_data_t *Parallel, ompt_data_t *Task,
                      const void *CodePtr) {
  OmptThread *T = Self();
  if (!T->Cur)
    return;
  u64 Now = ReadTick();
  if (Endpoint == ompt_scope_begin)
    EnterWait(T, Now);
  else if (T->State == raw::WS_Wait)
    Go(T, raw::WS_User, Now);
}

// no_sanitize("function"): with a client tool, "ompt_set_callback" is
// ompt-multiplex.h's, declared to return int rather than ompt_set_result_t
// (same ABI); UBSan's function-type check would flag the call.
__attribute__((no_sanitize("function"))) int
OmptInitialize(ompt_function_lookup_t Lookup, int InitialDeviceNum,
               ompt_data_t *ToolData) {
  auto Set = (ompt_set_callback_t)Lookup("ompt_set_callback");
  if (!Set)
    return 0;
  struct {
    ompt_callbacks_t Which;
    ompt_callback_t Fn;
  } const Table[] = {
      {ompt_callback_parallel_begin, (ompt_callback_t)OnParallelBegin},
      {ompt_callback_parallel_end, (ompt_callback_t)OnParallelEnd},
      {ompt_callback_implicit_task, (ompt_callback_t)OnImplicitTask},
      {ompt_callback_work, (ompt_callback_t)OnWork},
      {ompt_callback_dispatch, (ompt_callback_t)OnDispatch},
      {ompt_callback_task_create, (ompt_callback_t)OnTaskCreate},
      {ompt_callback_task_schedule, (ompt_callback_t)OnTaskSchedule},
      {ompt_callback_sync_region_wait, (ompt_callback_t)OnSyncRegionWait},
  };
  for (const auto &E : Table)
    if (Set(E.Which, E.Fn) != ompt_set_always)
      VLog(1, "OMPT callback %d not always available", (int)E.Which);
  atomic_store(&omp_status, raw::OS_Ompt, memory_order_release);
  return 1;
}

void OmptFinalize(ompt_data_t *ToolData) {}

} // namespace

ompt_start_tool_result_t omp_tool_result = {OmptInitialize, OmptFinalize, {0}};

u32 OmptStatus() {
  u32 S = atomic_load(&omp_status, memory_order_acquire);
  if (S == raw::OS_NoOpenMP && !flags()->openmp)
    return raw::OS_Disabled;
  if (S == raw::OS_NoOpenMP) {
    // An OpenMP runtime that never asked for a tool: libgomp has no OMPT.
    if (void *H = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      dlclose(H);
      return raw::OS_NoOmpt;
    }
  }
  return S;
}

void OmptSnapshot(const OmptThread *T, u32 I, u64 Now,
                  raw::RegionThreadRecord *Out) {
  const RegionSlot &S = T->Slots[I];
  *Out = S.Rec;
  if (T->Cur == &S && Now > T->Since)
    Out->StateTicks[T->State] += IntervalEnd(T, Now) - T->Since;
  Out->Tid = T->Tid;
}

void OmptAfterForkChild() {
  // The child's profile covers the child only: the parent's counts stay in
  // the parent's. Only the forking thread survives; its open region (if the
  // fork happened inside one) restarts at the fork.
  u64 Now = ReadTick();
  for (OmptThread *T = OmptThreadList(); T; T = T->Next) {
    for (u32 I = 0; I < T->NumSlots; ++I) {
      RegionSlot &S = T->Slots[I];
      internal_memset(&S.Rec, 0, sizeof(S.Rec));
      S.Instances = S.WallTicks = 0;
    }
    T->Since = Now;
    T->Lost = 0;
  }
  OmptThread *Me = omp_self;
  if (Me)
    Me->Tid = GetTid();
}

OmptThread *OmptThreadList() {
  return (OmptThread *)atomic_load(&thread_list, memory_order_acquire);
}

u64 OmptLostEvents() {
  u64 L = atomic_load(&lost_global, memory_order_relaxed);
  for (OmptThread *T = OmptThreadList(); T; T = T->Next)
    L += T->Lost;
  return L;
}

namespace {
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
  if (Code && dladdr1((void *)Code, &Info, (void **)&LM, RTLD_DL_LINKMAP) &&
      LM) {
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

// The section, unless the analysis is on and no OpenMP runtime was seen
// (its status says why one is empty).
void WriteParallelSection(ProfileWriter &W) {
  u32 Status = OmptStatus();
  if (Status != raw::OS_NoOpenMP)
    W.Section(raw::SK_Parallel, [&] {
      WriteParallel(W.Out, Status, W.Exe, W.ExeLen, W.EndTick);
    });
}
} // namespace

const Collector kOmptCollector = {
    .Name = "ompt",
    .Order = 90,
    .AfterForkChild = OmptAfterForkChild,
    .WriteSections = WriteParallelSection,
};
AT_REGISTER_COLLECTOR(kOmptCollector);

} // namespace __activetime

// Called by ompt-multiplex.h's ompt_start_tool (renamed by the header), which
// libomp finds in the executable or the shared runtime.
extern "C" ompt_start_tool_result_t *
ompt_start_tool(unsigned int OmpVersion, const char *RuntimeVersion) {
  using namespace __activetime;
  EnsureInit();
  if (!flags()->openmp)
    return nullptr;
  VLog(1, "registered as OMPT tool with %s", RuntimeVersion);
  return &omp_tool_result;
}
