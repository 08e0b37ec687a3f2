//===-- activetime_blockcounts.cpp - Per-thread PGO block counts ----------===//
//
// Part of ActiveTime. The runtime half of the block-counting training build
// (pass/ActiveTimeBlockCounts.cpp): each linked object registers the counter,
// data and name sections LLVM's IR PGO instrumentation laid out; each thread
// gets its own copy of every object's counters (its bias points the
// instrumented code there), and its own table of profiled values (indirect
// call targets, memory intrinsic sizes). An executable's code keeps its
// copies in static thread-local storage instead (the compiler's, one
// %fs-relative add per count): entries name each function's copy, at one
// offset from every thread's thread pointer, which the runtime measures
// once against a thread-local anchor of its own. A finishing thread adds its
// copies into the process's totals; the profile's block counts sections
// carry the totals plus the live threads' copies plus whatever ran on the
// shared counters (code that ran before its object registered, or on a
// thread whose copies were already added up: bias 0).
//
// The hot paths are the instrumented code's own counter increments (no
// runtime code at all) and the value profiling calls below: a lookup in
// the thread's open-addressed table, no lock, no allocation.
//
//===----------------------------------------------------------------------===//

#include "activetime/abi.h"
#include "activetime/raw_format.h"
#include "activetime_collector.h"
#include "activetime_flags.h"
#include "activetime_interface.h"
#include "activetime_thread.h"
#include "activetime_writer.h"

#include "sanitizer_common/sanitizer_common.h"

#include <pthread.h>

// LLVM's own definition of its profile data record and value kinds.
typedef __sanitizer::u64 IntPtrT;
namespace __activetime {
enum LLVMValueKind : u32 {
#define VALUE_PROF_KIND(Enumerator, Value, Descr) Enumerator = Value,
#include "profile/InstrProfData.inc"
};
struct LLVMProfData {
#define INSTR_PROF_DATA(Type, LLVMType, Name, Initializer) Type Name;
#include "profile/InstrProfData.inc"
};
} // namespace __activetime

#define AT_VALUE_ATTRS __attribute__((no_stack_protector, hot))

namespace __activetime {

using activetime::abi::BlockCountsDesc;
using activetime::abi::ThreadCountersEntry;

namespace {

// The linked objects that registered, in registration order; a table that
// is full ignores later ones (their code counts into its shared counters,
// which no profile reads).
constexpr u32 kMaxObjects = 64;

// Counters [First, First + N) of an object, in static TLS at Offset from
// each thread's anchor.
struct ThreadRange {
  uptr First;
  uptr N;
  sptr Offset;
};

struct BlockObject {
  BlockCountsDesc *Desc;
  u64 *Totals;    // finished threads' counts (and an unloaded object's own)
  uptr NumCounters;
  ThreadRange *Ranges; // counters in static TLS (an executable's)
  uptr NumRanges;
  // Set at unregistration (dlclose): copies of the data records and names,
  // which the profile needs after the object is gone.
  const LLVMProfData *DataCopy;
  uptr DataBytes;
  const char *NamesCopy;
  uptr NamesBytes;
  bool Unloaded;
};

// A (caller data record, kind, site, value) -> count table, open-addressed.
struct ValueEntry {
  uptr Data;
  u32 Site;
  u32 Kind;
  u64 Value;
  u64 Count;
};
struct ValueTable {
  uptr Cap; // a power of two
  uptr Used;
  ValueEntry *E;
};

// A started thread's copies, in the list the writer reads.
struct BlockThread {
  BlockThread *Next;
  uptr Anchor; // the thread's at_tls_anchor
  u64 *Slabs[kMaxObjects]; // null: not set up for that object
  ValueTable Values;
};

constexpr uptr kThreadValueCap = 1 << 14;
constexpr uptr kLargeThreadCounters = uptr(1) << 20;

Mutex block_mu; // objects, threads, Finished, process totals
BlockObject objects[kMaxObjects];
atomic_uint32_t num_objects;
BlockThread *block_threads;
ValueTable finished_values;   // finished threads' values
atomic_uint64_t values_lost;  // no table (thread not started) or table full
bool warned_full;

THREADLOCAL BlockThread *at_block_thread
    __attribute__((tls_model("initial-exec")));
// The thread's copies were added to the totals: later counts (its TLS
// destructors) go to the shared counters.
THREADLOCAL bool at_block_finished __attribute__((tls_model("initial-exec")));
// Its destructor finishes a thread that no timing probe started.
pthread_key_t block_key;
atomic_uint32_t block_key_state; // 0 none, 1 creating, 2 made
THREADLOCAL ValueTable *at_value_table
    __attribute__((tls_model("initial-exec")));
// Static TLS is laid out alike for every thread: a counter copy's distance
// from this is the same on all of them.
THREADLOCAL char at_tls_anchor __attribute__((tls_model("initial-exec")));

uptr OwnAnchor() { return uptr(&at_tls_anchor); }

// One multiply: the table's index is the product's high bits.
ALWAYS_INLINE uptr Hash(uptr Data, u32 Kind, u32 Site, u64 Value) {
  u64 H = (u64(Data) ^ (u64(Site) << 40) ^ (u64(Kind) << 62) ^
           (Value * 0xC2B2AE3D27D4EB4Full)) *
          0x9E3779B97F4A7C15ull;
  return uptr(H >> 32);
}

void *MapZeroed(uptr Bytes, const char *What) {
  return MmapOrDieOnFatalError(RoundUpTo(Bytes, GetPageSizeCached()), What);
}

void Unmap(void *P, uptr Bytes) {
  if (P)
    UnmapOrDie(P, RoundUpTo(Bytes, GetPageSizeCached()));
}

// Adds Count to the entry's key; false when the table is full (3/4: the
// probe sequences stay short).
ALWAYS_INLINE bool AddValue(ValueTable &T, uptr Data, u32 Kind, u32 Site,
                            u64 Value, u64 Count) {
  ValueEntry *E = T.E;
  if (!E)
    return false;
  uptr Mask = T.Cap - 1;
  for (uptr I = Hash(Data, Kind, Site, Value) & Mask;; I = (I + 1) & Mask) {
    ValueEntry &V = E[I];
    if (V.Data == Data && V.Value == Value && V.Site == Site &&
        V.Kind == Kind) {
      V.Count += Count;
      return true;
    }
    if (!V.Data) {
      if ((T.Used + 1) * 4 > T.Cap * 3)
        return false;
      V.Data = Data;
      V.Site = Site;
      V.Kind = Kind;
      V.Value = Value;
      V.Count = Count;
      ++T.Used;
      return true;
    }
  }
}

// The process table grows (block_mu held): finished threads' values are
// never dropped.
void AddFinishedValue(const ValueEntry &V) {
  ValueTable &T = finished_values;
  if (!T.E || (T.Used + 1) * 4 > T.Cap * 3) {
    ValueTable Old = T;
    uptr Cap = Old.Cap ? Old.Cap * 2 : kThreadValueCap;
    ValueEntry *E = (ValueEntry *)MapZeroed(Cap * sizeof(ValueEntry),
                                            "ActiveTime value profile");
    if (!E) {
      atomic_fetch_add(&values_lost, V.Count, memory_order_relaxed);
      return;
    }
    T = {Cap, 0, E};
    for (uptr I = 0; I < Old.Cap; ++I)
      if (Old.E[I].Data)
        AddValue(T, Old.E[I].Data, Old.E[I].Kind, Old.E[I].Site,
                 Old.E[I].Value, Old.E[I].Count);
    Unmap(Old.E, Old.Cap * sizeof(ValueEntry));
  }
  AddValue(T, V.Data, V.Kind, V.Site, V.Value, V.Count);
}

uptr CounterBytes(const BlockObject &O) { return O.NumCounters * sizeof(u64); }

// Points the calling thread's bias for object I at a copy of its own.
void OpenSlab(BlockThread &BT, u32 I) {
  BlockObject &O = objects[I];
  if (O.Unloaded || !O.NumCounters || BT.Slabs[I])
    return;
  u64 *Slab = (u64 *)MapZeroed(CounterBytes(O), "ActiveTime block counts");
  if (!Slab)
    return; // the thread counts into the shared counters
  BT.Slabs[I] = Slab;
  *O.Desc->BiasSlot() = s64(uptr(Slab) - uptr(O.Desc->CountersBegin));
}

void AddInto(u64 *To, const u64 *From, uptr N) {
  for (uptr I = 0; I < N; ++I)
    To[I] += From[I];
}

// Adds the thread-local counters of the thread at Anchor into To (indexed as
// the object's counters); with Move, zeroes them if they are the caller's
// own (another thread's are its to write: they are read, never written).
void AddThreadRanges(u64 *To, const BlockObject &O, uptr Anchor,
                     bool Move) {
  bool Own = Move && Anchor == OwnAnchor();
  for (uptr R = 0; R < O.NumRanges; ++R) {
    const ThreadRange &TR = O.Ranges[R];
    u64 *Copy = (u64 *)(Anchor + TR.Offset);
    AddInto(To + TR.First, Copy, TR.N);
    if (Own)
      internal_memset(Copy, 0, TR.N * sizeof(u64));
  }
}

// block_mu held. The calling thread's thread-local counters of every loaded
// object go into the totals (a thread that counts after it finished).
void FoldOwnThreadRanges() {
  for (u32 I = 0; I < atomic_load(&num_objects, memory_order_relaxed); ++I) {
    BlockObject &O = objects[I];
    if (!O.Unloaded && O.Totals)
      AddThreadRanges(O.Totals, O, OwnAnchor(), /*Move=*/true);
  }
}

// block_mu held. The thread's copies of object I go into the totals.
void CloseSlab(BlockThread &BT, u32 I, bool OnThread) {
  BlockObject &O = objects[I];
  if (!O.Unloaded && O.Totals)
    AddThreadRanges(O.Totals, O, BT.Anchor, /*Move=*/true);
  u64 *Slab = BT.Slabs[I];
  if (!Slab)
    return;
  if (OnThread && !O.Unloaded)
    *O.Desc->BiasSlot() = 0;
  if (O.Totals)
    AddInto(O.Totals, Slab, O.NumCounters);
  BT.Slabs[I] = nullptr;
  Unmap(Slab, CounterBytes(O));
}

// The calling thread's copies and value table.
void OpenCurrentThread() {
  if (at_block_thread || at_block_finished)
    return;
  // A value table even before any object registered: one may later.
  BlockThread *BT = (BlockThread *)MapZeroed(sizeof(BlockThread),
                                             "ActiveTime block counts");
  if (!BT)
    return;
  BT->Values.E = (ValueEntry *)MapZeroed(kThreadValueCap * sizeof(ValueEntry),
                                         "ActiveTime value profile");
  BT->Values.Cap = BT->Values.E ? kThreadValueCap : 0;
  BT->Anchor = OwnAnchor();
  Lock L(&block_mu);
  for (u32 I = 0; I < atomic_load(&num_objects, memory_order_relaxed); ++I)
    OpenSlab(*BT, I);
  BT->Next = block_threads;
  block_threads = BT;
  at_block_thread = BT;
  at_value_table = &BT->Values;
}

void Unlink(BlockThread *BT) {
  for (BlockThread **P = &block_threads; *P; P = &(*P)->Next)
    if (*P == BT) {
      *P = BT->Next;
      return;
    }
}

void FreeBlockThread(BlockThread *BT) {
  Unmap(BT->Values.E, BT->Values.Cap * sizeof(ValueEntry));
  Unmap(BT, sizeof(BlockThread));
}

// The calling thread's copies and values go into the process's.
void FinishCurrentThread() {
  BlockThread *BT = at_block_thread;
  if (!BT)
    return;
  at_block_finished = true;
  at_value_table = nullptr;
  {
    Lock L(&block_mu);
    for (u32 I = 0; I < atomic_load(&num_objects, memory_order_relaxed); ++I)
      CloseSlab(*BT, I, /*OnThread=*/true);
    // Only a table that was written to: reading an untouched one would
    // fault in every page of it.
    for (uptr I = 0; BT->Values.Used && I < BT->Values.Cap; ++I)
      if (BT->Values.E[I].Data)
        AddFinishedValue(BT->Values.E[I]);
    Unlink(BT);
  }
  at_block_thread = nullptr;
  FreeBlockThread(BT);
}

// Testing resets and a child made behind the fork handlers: the thread's
// copies are dropped (their counts with them).
void ForgetBlockThread(ThreadTls &, ThreadState *) {
  at_block_thread = nullptr;
  at_value_table = nullptr;
}

// The collector's thread hooks: a thread that runs timing probes as well.
// Where no object counts blocks (a timed program), nothing: an object
// loaded later opens the thread's copies at its first counted function
// (__activetime_block_thread), as in a training build.
void OpenBlockThread(ThreadTls &, ThreadState *, u64) {
  if (atomic_load(&num_objects, memory_order_acquire))
    OpenCurrentThread();
}
void FinishBlockThread(ThreadTls &, ThreadState *, u64) {
  FinishCurrentThread();
}

// Again for a thread that counted after it finished (in other keys'
// destructors): the slow path set the key again.
void FinishOnKeyDestructor(void *) {
  if (at_block_thread) {
    FinishCurrentThread();
    return;
  }
  Lock L(&block_mu);
  FoldOwnThreadRanges();
}

// Threads of a training build run no timing probe: the first counted
// function of each starts its copies, and a key's destructor ends them.
void EnsureBlockKey() {
  u32 Expected = 0;
  if (atomic_compare_exchange_strong(&block_key_state, &Expected, 1,
                                     memory_order_acq_rel)) {
    pthread_key_create(&block_key, FinishOnKeyDestructor);
    atomic_store(&block_key_state, 2, memory_order_release);
  }
  while (atomic_load(&block_key_state, memory_order_acquire) != 2)
    internal_sched_yield();
}

void LockForFork() { block_mu.Lock(); }
void UnlockAfterFork() { block_mu.Unlock(); }

// A fork child counts from zero, as its other figures do: the parent's
// counts are the parent's profile. Only the forking thread survived.
void BlockCountsAfterForkChild() {
  Lock L(&block_mu);
  BlockThread *Self = at_block_thread;
  block_threads = Self;
  if (Self) {
    Self->Next = nullptr;
    internal_memset(Self->Values.E, 0, Self->Values.Cap * sizeof(ValueEntry));
    Self->Values.Used = 0;
  }
  for (u32 I = 0; I < atomic_load(&num_objects, memory_order_relaxed); ++I) {
    BlockObject &O = objects[I];
    if (O.Unloaded)
      continue;
    internal_memset(O.Desc->CountersBegin, 0, CounterBytes(O));
    if (O.Totals)
      internal_memset(O.Totals, 0, CounterBytes(O));
    if (Self && Self->Slabs[I])
      internal_memset(Self->Slabs[I], 0, CounterBytes(O));
    for (uptr R = 0; R < O.NumRanges; ++R)
      internal_memset((void *)(OwnAnchor() + O.Ranges[R].Offset), 0,
                      O.Ranges[R].N * sizeof(u64));
  }
  Unmap(finished_values.E, finished_values.Cap * sizeof(ValueEntry));
  finished_values = {};
  atomic_store(&values_lost, 0, memory_order_relaxed);
}

//===----------------------------------------------------------------------===//
// The profile: one SK_BlockCounts section per registered object.
//===----------------------------------------------------------------------===//

const LLVMProfData *DataBegin(const BlockObject &O) {
  return O.Unloaded ? O.DataCopy : (const LLVMProfData *)O.Desc->DataBegin;
}
uptr NumData(const BlockObject &O) {
  uptr Bytes = O.Unloaded ? O.DataBytes
                          : uptr(O.Desc->DataEnd) - uptr(O.Desc->DataBegin);
  return Bytes / sizeof(LLVMProfData);
}
const char *NamesBegin(const BlockObject &O) {
  return O.Unloaded ? O.NamesCopy : O.Desc->NamesBegin;
}
uptr NamesBytes(const BlockObject &O) {
  return O.Unloaded ? O.NamesBytes
                    : uptr(O.Desc->NamesEnd) - uptr(O.Desc->NamesBegin);
}

// The object's counts: totals, the shared counters, every live thread's copy
// (read while they run: each word is read whole).
u64 *SumCounters(u32 I) {
  const BlockObject &O = objects[I];
  u64 *Sum = (u64 *)MapZeroed(CounterBytes(O), "ActiveTime block counts");
  if (!Sum)
    return nullptr;
  if (O.Totals)
    AddInto(Sum, O.Totals, O.NumCounters);
  if (!O.Unloaded)
    AddInto(Sum, (const u64 *)O.Desc->CountersBegin, O.NumCounters);
  for (BlockThread *BT = block_threads; BT; BT = BT->Next) {
    if (BT->Slabs[I])
      AddInto(Sum, BT->Slabs[I], O.NumCounters);
    if (!O.Unloaded)
      AddThreadRanges(Sum, O, BT->Anchor, /*Move=*/false);
  }
  return Sum;
}

// A function of a loaded object: its address and LLVM's hash of its name.
struct FuncAddr {
  u64 Addr;
  u64 NameRef;
};
using FuncAddrs = InternalMmapVector<FuncAddr>;

// block_mu held. Every loaded object's functions, by address: built once per
// profile, so naming the indirect call targets is a binary search each.
void CollectFuncAddrs(FuncAddrs &Out) {
  for (u32 I = 0; I < atomic_load(&num_objects, memory_order_relaxed); ++I) {
    const BlockObject &O = objects[I];
    if (O.Unloaded)
      continue;
    const LLVMProfData *D = DataBegin(O);
    for (uptr J = 0, N = NumData(O); J < N; ++J)
      Out.push_back({u64(D[J].FunctionPointer), D[J].NameRef});
  }
  Sort(Out.data(), Out.size(),
       [](const FuncAddr &A, const FuncAddr &B) { return A.Addr < B.Addr; });
}

// An indirect call target's name hash (0: a function without a record).
u64 TargetNameRef(const FuncAddrs &Funcs, u64 Addr) {
  uptr I = InternalLowerBound(
      Funcs, Addr, [](const FuncAddr &F, u64 A) { return F.Addr < A; });
  return I < Funcs.size() && Funcs[I].Addr == Addr ? Funcs[I].NameRef : 0;
}

void WriteFuncs(OutBuffer *B, const BlockObject &O) {
  const LLVMProfData *D = DataBegin(O);
  uptr CountersAt = O.Unloaded ? 0 : uptr(O.Desc->CountersBegin);
  for (uptr J = 0, N = NumData(O); J < N; ++J) {
    activetime::raw::BlockFuncRecord R;
    internal_memset(&R, 0, sizeof(R));
    R.NameRef = D[J].NameRef;
    R.FuncHash = D[J].FuncHash;
    // CounterPtr is relative to the record's own address in the object;
    // an unloaded object's copy stored the counter index there instead.
    uptr First = O.Unloaded ? uptr(D[J].CounterPtr)
                            : (uptr(&D[J]) + uptr(D[J].CounterPtr) -
                               CountersAt) / sizeof(u64);
    R.FirstCounter = u32(First);
    R.NumCounters = D[J].NumCounters;
    R.IndirectSites = D[J].NumValueSites[IPVK_IndirectCallTarget];
    R.MemOpSites = D[J].NumValueSites[IPVK_MemOPSize];
    B->Append(&R, sizeof(R));
  }
}

// LLVM's lowering numbers a function's value sites across kinds (a memory
// intrinsic's index counts the indirect call sites before it); the profile
// numbers them within their kind. False for an index out of range.
bool SiteInKind(const ValueEntry &V, u32 &Site) {
  const LLVMProfData &D = *(const LLVMProfData *)V.Data;
  u32 Before = 0;
  for (u32 K = 0; K < V.Kind; ++K)
    Before += D.NumValueSites[K];
  Site = V.Site - Before;
  return V.Site >= Before && Site < D.NumValueSites[V.Kind];
}

u32 CountValues(const ValueTable &T, uptr Lo, uptr Hi) {
  u32 N = 0, Site;
  for (uptr K = 0; K < T.Cap; ++K)
    N += T.E[K].Data >= Lo && T.E[K].Data < Hi && SiteInKind(T.E[K], Site);
  return N;
}

void WriteValues(OutBuffer *B, const ValueTable &T, uptr Lo, uptr Hi,
                 const FuncAddrs &Targets) {
  for (uptr K = 0; K < T.Cap; ++K) {
    const ValueEntry &V = T.E[K];
    u32 Site;
    if (V.Data < Lo || V.Data >= Hi || !SiteInKind(V, Site))
      continue;
    activetime::raw::BlockValueRecord R;
    internal_memset(&R, 0, sizeof(R));
    R.Func = u32((V.Data - Lo) / sizeof(LLVMProfData));
    R.Kind = V.Kind;
    R.Site = Site;
    R.Value = V.Kind == IPVK_IndirectCallTarget
                  ? TargetNameRef(Targets, V.Value)
                  : V.Value;
    R.Count = V.Count;
    B->Append(&R, sizeof(R));
  }
}

void WriteBlockCounts(OutBuffer *B, u32 I, const FuncAddrs &Targets) {
  const BlockObject &O = objects[I];
  u64 *Sum = SumCounters(I);
  // Values are keyed by the data record's run-time address: an unloaded
  // object's values are not written (its address range may be reused).
  uptr Lo = O.Unloaded ? 0 : uptr(O.Desc->DataBegin);
  uptr Hi = O.Unloaded ? 0 : uptr(O.Desc->DataEnd);
  u32 NumValues = CountValues(finished_values, Lo, Hi);
  for (BlockThread *BT = block_threads; BT; BT = BT->Next)
    NumValues += CountValues(BT->Values, Lo, Hi);
  activetime::raw::BlockCountsRecord H;
  internal_memset(&H, 0, sizeof(H));
  // Without memory for the sum, an empty section (no functions, no counts).
  H.NumFuncs = Sum ? u32(NumData(O)) : 0;
  H.NumCounters = Sum ? u32(O.NumCounters) : 0;
  H.NumValues = Sum ? NumValues : 0;
  H.NamesSize = u32(NamesBytes(O));
  // A figure of the process: in its first section only, so that adding
  // the sections counts it once.
  H.ValuesLost = I ? 0 : atomic_load(&values_lost, memory_order_relaxed);
  B->Append(&H, sizeof(H));
  if (Sum) {
    WriteFuncs(B, O);
    B->Append(Sum, CounterBytes(O));
    WriteValues(B, finished_values, Lo, Hi, Targets);
    for (BlockThread *BT = block_threads; BT; BT = BT->Next)
      WriteValues(B, BT->Values, Lo, Hi, Targets);
  }
  B->Append(NamesBegin(O), NamesBytes(O));
  static const char Zeros[8] = {};
  B->Append(Zeros, RoundUpTo(NamesBytes(O), 8) - NamesBytes(O));
  Unmap(Sum, CounterBytes(O));
}

void FillBlockCountsProcessRecord(activetime::raw::ProcessRecord &R) {
  R.NumBlockCounts = atomic_load(&num_objects, memory_order_relaxed);
}

void WriteBlockCountsSections(ProfileWriter &W) {
  Lock L(&block_mu);
  u32 N = atomic_load(&num_objects, memory_order_relaxed);
  if (!N)
    return;
  FuncAddrs Targets;
  CollectFuncAddrs(Targets);
  for (u32 I = 0; I < N; ++I)
    W.Section(activetime::raw::SK_BlockCounts,
              [&] { WriteBlockCounts(W.Out, I, Targets); });
}

// block_mu held. dlclose: the object's counts go into its totals and its
// records and names are copied, with each record's counter index in place
// of its address.
void UnloadObject(u32 I) {
  BlockObject &O = objects[I];
  if (!O.Totals)
    return;
  for (BlockThread *BT = block_threads; BT; BT = BT->Next)
    CloseSlab(*BT, I, /*OnThread=*/BT == at_block_thread);
  AddInto(O.Totals, (const u64 *)O.Desc->CountersBegin, O.NumCounters);
  uptr N = NumData(O);
  LLVMProfData *Copy =
      (LLVMProfData *)MapZeroed(N * sizeof(LLVMProfData), "ActiveTime PGO");
  char *Names = (char *)MapZeroed(NamesBytes(O) + 1, "ActiveTime PGO");
  if (!Copy || !Names) {
    O.NumCounters = 0; // nothing to write
    return;
  }
  const LLVMProfData *D = DataBegin(O);
  for (uptr J = 0; J < N; ++J) {
    internal_memcpy(&Copy[J], &D[J], sizeof(LLVMProfData));
    *(u64 *)&Copy[J].CounterPtr =
        (uptr(&D[J]) + uptr(D[J].CounterPtr) - uptr(O.Desc->CountersBegin)) /
        sizeof(u64);
  }
  internal_memcpy(Names, O.Desc->NamesBegin, NamesBytes(O));
  O.DataBytes = N * sizeof(LLVMProfData);
  O.NamesBytes = NamesBytes(O);
  O.DataCopy = Copy;
  O.NamesCopy = Names;
  O.Unloaded = true;
}

// The object's functions whose counters live in static TLS: where, measured
// on the registering thread. An entry off the object's counters (or without
// memory for the table) is left out: its counts are not read.
void MapThreadRanges(BlockObject &O) {
  const ThreadCountersEntry *B = O.Desc->ThreadCountersBegin;
  const ThreadCountersEntry *E = O.Desc->ThreadCountersEnd;
  uptr N = B && E > B ? uptr(E - B) : 0;
  O.NumRanges = 0;
  O.Ranges = N ? (ThreadRange *)MapZeroed(N * sizeof(ThreadRange),
                                          "ActiveTime block counts")
               : nullptr;
  if (!O.Ranges)
    return;
  uptr Begin = uptr(O.Desc->CountersBegin);
  uptr Bytes = 0;
  for (const ThreadCountersEntry *X = B; X < E; ++X) {
    uptr First = (uptr(X->Counters) - Begin) / sizeof(u64);
    if (uptr(X->Counters) < Begin || First + X->NumCounters > O.NumCounters)
      continue;
    O.Ranges[O.NumRanges++] = {First, uptr(X->NumCounters),
                               sptr(uptr(X->ThreadCopy()) - OwnAnchor())};
    Bytes += X->NumCounters * sizeof(u64);
  }
  // glibc takes static TLS out of each thread's stack: say so where it
  // may matter (docs/pgo.md, Limits).
  if (Bytes > kLargeThreadCounters)
    Report("ActiveTime: the training build's counters take %zu KiB of every "
           "thread's stack (static TLS); if threads run short of stack, "
           "build with -mllvm -activetime-block-counts-tls=false\n",
           (usize)(Bytes >> 10));
}

} // namespace

const Collector kBlockCountsCollector = {
    .Name = "block-counts",
    .Order = 80,
    .ForkPrepare = LockForFork,
    .ForkParent = UnlockAfterFork,
    .ForkChild = UnlockAfterFork,
    .AfterForkChild = BlockCountsAfterForkChild,
    .ThreadStart = OpenBlockThread,
    .ThreadFinish = FinishBlockThread,
    .ThreadForget = ForgetBlockThread,
    .ThreadAbandon = ForgetBlockThread,
    .FillProcess = FillBlockCountsProcessRecord,
    .WriteSections = WriteBlockCountsSections,
};
AT_REGISTER_COLLECTOR(kBlockCountsCollector);

} // namespace __activetime

using namespace __activetime;

extern "C" void __activetime_register_block_counts(BlockCountsDesc *D) {
  // The profile is written at exit even if no timing probe ever runs, and
  // without timing's start-up calibrations if none does.
  EnsureCoreInit();
  EnsureBlockKey();
  Lock L(&block_mu);
  u32 N = atomic_load(&num_objects, memory_order_relaxed);
  if (N == kMaxObjects) {
    if (!warned_full)
      Report("ActiveTime: more than %u objects with block counts; later ones "
             "are not profiled\n", kMaxObjects);
    warned_full = true;
    return;
  }
  BlockObject &O = objects[N];
  O.Desc = D;
  O.NumCounters = (uptr(D->CountersEnd) - uptr(D->CountersBegin)) / sizeof(u64);
  O.Totals = (u64 *)MapZeroed(CounterBytes(O), "ActiveTime block counts");
  if (!O.Totals)
    O.NumCounters = 0;
  MapThreadRanges(O);
  D->RuntimeData = &O;
  atomic_store(&num_objects, N + 1, memory_order_release);
  for (BlockThread *BT = block_threads; BT; BT = BT->Next)
    if (BT == at_block_thread)
      OpenSlab(*BT, N);
}

extern "C" void __activetime_unregister_block_counts(BlockCountsDesc *D) {
  Lock L(&block_mu);
  if (D->RuntimeData)
    UnloadObject(u32((BlockObject *)D->RuntimeData - objects));
  D->RuntimeData = nullptr;
}

extern "C" s64 __activetime_block_thread(BlockCountsDesc *D) {
  if (at_block_finished && D->RuntimeData)
    // Its thread-local counters are added up when the key's destructors
    // run again (up to PTHREAD_DESTRUCTOR_ITERATIONS times).
    pthread_setspecific(block_key, &at_tls_anchor);
  if (at_block_finished || !D->RuntimeData)
    return 0;
  if (!at_block_thread) {
    OpenCurrentThread();
    if (!at_block_thread)
      return 0;
    pthread_setspecific(block_key, at_block_thread);
  }
  // An object registered after the thread started (dlopen).
  u32 I = u32((BlockObject *)D->RuntimeData - objects);
  if (!at_block_thread->Slabs[I]) {
    Lock L(&block_mu);
    OpenSlab(*at_block_thread, I);
  }
  return *D->BiasSlot();
}

extern "C" AT_VALUE_ATTRS void
__activetime_value_profile(u64 Value, void *Data, u32 Site) {
  ValueTable *T = at_value_table;
  if (!T || !AddValue(*T, uptr(Data), IPVK_IndirectCallTarget, Site, Value, 1))
    atomic_fetch_add(&values_lost, 1, memory_order_relaxed);
}

// LLVM's ranges of memory intrinsic sizes (InstrProfGetRangeRepValue): 0..8
// each, powers of two, else the power of two below plus one; 513 and up one.
static u64 MemOpRange(u64 Size) {
  if (Size <= 8)
    return Size;
  if (Size >= 513)
    return 513;
  if (!(Size & (Size - 1)))
    return Size;
  return (u64(1) << (63 - __builtin_clzll(Size))) + 1;
}

extern "C" AT_VALUE_ATTRS void
__activetime_memop_profile(u64 Size, void *Data, u32 Site) {
  ValueTable *T = at_value_table;
  if (!T || !AddValue(*T, uptr(Data), IPVK_MemOPSize, Site, MemOpRange(Size),
                      1))
    atomic_fetch_add(&values_lost, 1, memory_order_relaxed);
}
