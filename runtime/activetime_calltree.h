//===- activetime_calltree.h - Per-thread calling-context tree --*- C++ -*-===//
//
// Nodes live in fixed-size chunks that never move; the chunk directory grows
// by copying and old directories are never freed, so the exit-time writer can
// read another live thread's tree (size first, acquire) without
// use-after-free. Children are found through an open-addressing hash table
// keyed by (parent node index, FuncDesc pointer, call site); a slot holds
// the key and the node index so a hit touches one cache line. The call site
// (the return address of the call, 0 when unknown) makes each call
// instruction that reaches a function from one calling context a node of its
// own: the call-site edges that profile-guided optimization needs (which
// call of f in g is the hot one, which targets an indirect call reaches).
// The table is only used by the owning thread and is rehashed (slow path)
// when load exceeds 1/2.
// Node 0 is the root sentinel (fn null).
//
// Latency histograms (raw format v9): each node counts its timed calls by
// active inclusive ticks in the log-linear buckets of activetime/latency.h
// (one call late: Node::PendingA).
// The 496 counters are split into 16 groups of 32 (4 octaves, a 16x range
// of durations); a node holds a pointer to a directory of the 16 group
// pointers, and both the directory and a group are carved out of the tree's
// histogram arena by the exit probe's slow path the first time a call falls
// into a group without storage. A node whose calls span one group costs 128
// + 256 bytes, at most 128 + 16 * 256; nodes that never complete a timed
// call cost nothing. Like the nodes, the arena is never freed while a
// writer may read it. With latency=0 every node points at one sink
// directory (all groups one scratch group) so the probe never asks again.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_CALLTREE_H
#define ACTIVETIME_CALLTREE_H

#include "activetime/latency.h"
#include "activetime_internal.h"

namespace __activetime {

struct Node {
  const FuncDesc *Fn;
  u32 Parent;
  u32 Reserved;
  uptr Site; // return address of the calls (in the caller), 0: unknown
  u64 Calls;
  u64 Incl;  // elapsed inclusive
  u64 Excl;  // elapsed exclusive (Incl minus the callees' Incl)
  u64 Min;   // shortest call, ACTIVE ticks; ~0 until the first call completes
  u64 Max;   // longest call, ACTIVE ticks
  u64 Ovh256; // probe overhead inside the calls, ticks * 256
  u64 Off;   // switched-out ticks inside the calls
  u32 Vol;   // voluntary switches inside the calls
  u32 Invol; // involuntary switches inside the calls
  u64 NextCheck; // Calls at which CheckTiming looks at the node again
  u64 *Counter;  // the thread's call counter of Fn, once CheckTiming found it
  u64 **Hist;    // latency histogram directory (kLatGroups groups); null
                 // until the node's second timed call completes
  // Active ticks of the node's latest call, not yet in Hist (kNoPending:
  // none). Each exit counts the previous call and leaves its own here, so
  // the bucket and the counter's address come from a value in memory, not
  // from this probe's tick read: the work runs in the shadow of the read
  // instead of after it (measured, docs/performance.md). The writer adds
  // it to the histogram it writes.
  u64 PendingA;
};

constexpr u64 kNoPending = ~0ull;

class CallTree {
public:
  static constexpr u32 kChunkShift = 10;
  static constexpr u32 kChunkNodes = 1u << kChunkShift;
  static constexpr u32 kInitialSlotsLog = 10;

  // Zero-initialized storage is "not initialized"; Init allocates the root.
  void Init();
  // Releases the hash table (the nodes stay readable). Owner thread only.
  void ReleaseIndex();

  // Child of Parent for Fn: its index, or 0 if none. Owner thread only.
  ALWAYS_INLINE u32 Find(u32 Parent, const FuncDesc *Fn, uptr Site) const {
    uptr I = Hash(Parent, Fn, Site) >> Shift;
    for (;;) {
      const Slot &S = Slots[I];
      if (LIKELY(S.Fn == Fn && S.Site == Site && S.Parent == Parent))
        return S.Node;
      if (!S.Fn)
        return 0;
      I = (I + 1) & Mask;
    }
  }
  // Adds a child (slow path: may allocate). Owner thread only.
  u32 Insert(u32 Parent, const FuncDesc *Fn, uptr Site);
  ALWAYS_INLINE u32 FindOrInsert(u32 Parent, const FuncDesc *Fn, uptr Site) {
    u32 N = Find(Parent, Fn, Site);
    if (LIKELY(N))
      return N;
    return Insert(Parent, Fn, Site);
  }

  ALWAYS_INLINE Node *At(u32 I) const {
    return &Dir[I >> kChunkShift][I & (kChunkNodes - 1)];
  }
  // Number of nodes (including the root), for readers on other threads:
  // nodes below the returned size are fully initialized.
  u32 SizeAcquire() const { return atomic_load(&NumNodes, memory_order_acquire); }
  Node *AtAcquire(u32 I) const {
    Node **D = (Node **)atomic_load(&DirPtr, memory_order_acquire);
    return &D[I >> kChunkShift][I & (kChunkNodes - 1)];
  }
  u32 Size() const { return atomic_load(&NumNodes, memory_order_relaxed); }
  u32 NumSlots() const { return Mask + 1; }

  static constexpr u32 kLatGroupShift = 5;
  static constexpr u32 kLatGroupBuckets = 1u << kLatGroupShift;
  static constexpr u32 kLatGroups =
      (activetime::latency::kLatencyBuckets + kLatGroupBuckets - 1) >>
      kLatGroupShift;

  // The counter of bucket B in N's histogram, or null when its storage does
  // not exist yet (LatencySlotSlow makes it). Two dependent loads.
  ALWAYS_INLINE static u64 *LatencySlot(const Node *N, u32 B) {
    u64 **D = N->Hist;
    if (UNLIKELY(!D))
      return nullptr;
    u64 *G = D[B >> kLatGroupShift];
    if (UNLIKELY(!G))
      return nullptr;
    return G + (B & (kLatGroupBuckets - 1));
  }
  // Slow path of the exit probe: allocates N's directory and the group of
  // bucket B from the arena (or points N at the sink with latency=0).
  // Owner thread only.
  u64 *LatencySlotSlow(Node *N, u32 B);
  // N's histogram into Out (kLatencyBuckets counters), its pending call
  // included: the counts sum to N.Calls. Only the groups that have counts
  // are written; returns their mask (bit G: counters G * kLatGroupBuckets
  // on), 0 with latency=0 or no call. Any thread; the writer calls it
  // inside its seqlock read, on its copy of the node.
  u32 CopyLatency(const Node &N, u64 *Out) const;

  // Zeroes every node's statistics (fork child).
  void ResetStats();
  // Adds every node of From (a finished thread's tree, nobody else reading
  // it) to this tree, its statistics and latency counts included: Map[I]
  // becomes the node From's node I went to (From.Size() entries). The
  // caller owns this tree (the registry lock, for the folded threads').
  void FoldFrom(const CallTree &From, u32 *Map);
  // Unmaps everything (a tree nobody else can see: calibration scratch).
  void Destroy();

  ALWAYS_INLINE static u64 Hash(u32 Parent, const FuncDesc *Fn, uptr Site) {
    u64 K = u64(uptr(Fn)) ^ (u64(Parent) << 32) ^ u64(Parent) ^
            (u64(Site) * 0xC2B2AE3D27D4EB4Full);
    return K * 0x9E3779B97F4A7C15ull;
  }

private:
  struct alignas(32) Slot { // 32 bytes: a slot never straddles cache lines
    const FuncDesc *Fn;
    uptr Site;
    u32 Parent;
    u32 Node;
  };
  void Grow();
  u32 NewNode(u32 Parent, const FuncDesc *Fn, uptr Site);
  void *LatAlloc(uptr Bytes);
  void ReleaseLatency();

  Slot *Slots;
  uptr Mask;
  u32 Shift; // 64 - log2(number of slots)
  u32 Used;
  Node **Dir;
  atomic_uintptr_t DirPtr; // == Dir, for readers
  u32 DirCap;
  atomic_uint32_t NumNodes;
  // Histogram arena: the current block's unused bytes, and the blocks as a
  // list through their first word (for Destroy).
  char *LatCur;
  uptr LatLeft;
  void *LatBlocks;
  u64 **LatSink; // latency=0: the directory every node points at
};

} // namespace __activetime

#endif // ACTIVETIME_CALLTREE_H
