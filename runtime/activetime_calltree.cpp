//===- activetime_calltree.cpp - Per-thread calling-context tree -*- C++ -*-===//

#include "activetime_calltree.h"
#include "activetime_recycle.h"
#include "activetime_counts.h"
#include "activetime_flags.h"

namespace __activetime {

void CallTree::Init() {
  uptr NSlots = uptr(1) << kInitialSlotsLog;
  Slots = (Slot *)MapRecycled(NSlots * sizeof(Slot), "ActiveTime call-tree index");
  Mask = NSlots - 1;
  Shift = 64 - kInitialSlotsLog;
  Used = 0;
  LatCur = nullptr;
  LatLeft = 0;
  LatBlocks = nullptr;
  LatSink = nullptr;
  DirCap = 16;
  Dir = (Node **)MapRecycled(DirCap * sizeof(Node *), "ActiveTime call-tree dir");
  atomic_store(&DirPtr, uptr(Dir), memory_order_release);
  atomic_store(&NumNodes, 0, memory_order_relaxed);
  NewNode(0xffffffffu, nullptr, 0); // root sentinel
}

void CallTree::ReleaseIndex() {
  if (Slots)
    Recycle(Slots, (Mask + 1) * sizeof(Slot), (Mask + 1) * sizeof(Slot));
  Slots = nullptr;
}

u32 CallTree::NewNode(u32 Parent, const FuncDesc *Fn, uptr Site) {
  u32 I = atomic_load(&NumNodes, memory_order_relaxed);
  CHECK_LT(I, 0xfffffff0u);
  u32 C = I >> kChunkShift;
  if ((I & (kChunkNodes - 1)) == 0) {
    if (C == DirCap) {
      // Grow the directory; the old one is never freed (a writer on another
      // thread may still be reading it).
      u32 NewCap = DirCap * 2;
      Node **D = (Node **)MmapOrDie(NewCap * sizeof(Node *), "ActiveTime call-tree dir");
      internal_memcpy(D, Dir, DirCap * sizeof(Node *));
      Dir = D;
      DirCap = NewCap;
    }
    Dir[C] = (Node *)MapRecycled(kChunkNodes * sizeof(Node),
                                 "ActiveTime call-tree nodes");
    atomic_store(&DirPtr, uptr(Dir), memory_order_release);
  }
  Node *N = &Dir[C][I & (kChunkNodes - 1)];
  N->Fn = Fn;
  N->Parent = Parent;
  N->Reserved = 0;
  N->Site = Site;
  N->Calls = N->Incl = N->Excl = N->Max = N->Ovh256 = N->Off = 0;
  N->Vol = N->Invol = 0;
  N->Min = ~0ull;
  N->NextCheck = kFirstTimingCheck;
  N->Counter = nullptr;
  N->Hist = nullptr;
  N->PendingA = kNoPending;
  atomic_store(&NumNodes, I + 1, memory_order_release);
  return I;
}

void CallTree::Grow() {
  uptr OldN = Mask + 1;
  Slot *Old = Slots;
  uptr NewN = OldN * 2;
  Slots = (Slot *)MmapOrDie(NewN * sizeof(Slot), "ActiveTime call-tree index");
  Mask = NewN - 1;
  Shift -= 1;
  for (uptr I = 0; I < OldN; ++I) {
    if (!Old[I].Fn)
      continue;
    uptr J = Hash(Old[I].Parent, Old[I].Fn, Old[I].Site) >> Shift;
    while (Slots[J].Fn)
      J = (J + 1) & Mask;
    Slots[J] = Old[I];
  }
  Recycle(Old, OldN * sizeof(Slot), OldN * sizeof(Slot));
}

u32 CallTree::Insert(u32 Parent, const FuncDesc *Fn, uptr Site) {
  if (2 * (Used + 1) > Mask + 1)
    Grow();
  u32 N = NewNode(Parent, Fn, Site);
  uptr J = Hash(Parent, Fn, Site) >> Shift;
  while (Slots[J].Fn)
    J = (J + 1) & Mask;
  Slots[J].Fn = Fn;
  Slots[J].Site = Site;
  Slots[J].Parent = Parent;
  Slots[J].Node = N;
  ++Used;
  return N;
}

void CallTree::ResetStats() {
  u32 N = Size();
  for (u32 I = 0; I < N; ++I) {
    Node *X = At(I);
    X->Calls = X->Incl = X->Excl = X->Max = X->Ovh256 = X->Off = 0;
    X->Vol = X->Invol = 0;
    X->Min = ~0ull;
    X->NextCheck = kFirstTimingCheck;
    X->PendingA = kNoPending;
    if (!X->Hist || X->Hist == LatSink)
      continue;
    for (u32 G = 0; G < kLatGroups; ++G)
      if (X->Hist[G])
        internal_memset(X->Hist[G], 0, kLatGroupBuckets * sizeof(u64));
  }
}

// Blocks of 64 KiB: a directory is 128 bytes, a group 256, so a block
// serves a few hundred nodes and the arena costs one mmap per that many.
static constexpr uptr kLatBlockBytes = 1 << 16;

void *CallTree::LatAlloc(uptr Bytes) {
  if (LatLeft < Bytes) {
    char *B = (char *)MapRecycled(kLatBlockBytes, "ActiveTime latency histograms");
    *(void **)B = LatBlocks;
    LatBlocks = B;
    LatCur = B + 64; // the list link, then cache-line aligned pieces
    LatLeft = kLatBlockBytes - 64;
  }
  void *P = LatCur; // handed out once: still zero
  LatCur += Bytes;
  LatLeft -= Bytes;
  return P;
}

u64 *CallTree::LatencySlotSlow(Node *N, u32 B) {
  constexpr uptr kDirBytes = kLatGroups * sizeof(u64 *);
  constexpr uptr kGroupBytes = kLatGroupBuckets * sizeof(u64);
  if (!N->Hist && !flags()->latency) {
    if (!LatSink) {
      u64 **D = (u64 **)LatAlloc(kDirBytes);
      u64 *G = (u64 *)LatAlloc(kGroupBytes);
      for (u32 I = 0; I < kLatGroups; ++I)
        D[I] = G;
      LatSink = D;
    }
    N->Hist = LatSink;
  }
  // A writer on another thread reads the pointers under the thread's
  // seqlock (it retries while the probe runs): plain stores suffice.
  if (!N->Hist)
    N->Hist = (u64 **)LatAlloc(kDirBytes);
  u64 *&G = N->Hist[B >> kLatGroupShift];
  if (!G)
    G = (u64 *)LatAlloc(kGroupBytes);
  return G + (B & (kLatGroupBuckets - 1));
}

u32 CallTree::CopyLatency(const Node &N, u64 *Out) const {
  static_assert(kLatGroups <= 32, "group mask");
  constexpr uptr kGroupBytes = kLatGroupBuckets * sizeof(u64);
  if (!flags()->latency)
    return 0;
  u32 Mask = 0;
  u64 **D = *(u64 **volatile *)&N.Hist;
  for (u32 G = 0; D && G < kLatGroups; ++G) {
    u64 *Src = *(u64 *volatile *)&D[G];
    if (!Src)
      continue;
    // The last group is half beyond the last bucket: never counted there.
    internal_memcpy(Out + G * kLatGroupBuckets, Src, kGroupBytes);
    Mask |= 1u << G;
  }
  if (N.PendingA != kNoPending) {
    u32 B = activetime::latency::bucketOf(N.PendingA);
    u32 G = B >> kLatGroupShift;
    if (!(Mask & (1u << G)))
      internal_memset(Out + G * kLatGroupBuckets, 0, kGroupBytes);
    Mask |= 1u << G;
    Out[B]++;
  }
  return Mask;
}

void CallTree::ReleaseLatency() {
  // The newest block is written up to LatCur, the others wholly.
  for (bool Newest = true; LatBlocks; Newest = false) {
    void *Next = *(void **)LatBlocks;
    Recycle(LatBlocks, kLatBlockBytes,
            Newest ? uptr(LatCur - (char *)LatBlocks) : kLatBlockBytes);
    LatBlocks = Next;
  }
  LatCur = nullptr;
  LatLeft = 0;
  LatSink = nullptr;
}

namespace {
// Counts of a node's calls into Into's (latency histogram scratch: one
// fold at a time, under the registry lock).
u64 fold_hist[CallTree::kLatGroups * CallTree::kLatGroupBuckets];

void AddStats(Node *To, const Node &X) {
  To->Calls += X.Calls;
  To->Incl += X.Incl;
  To->Excl += X.Excl;
  To->Ovh256 += X.Ovh256;
  To->Off += X.Off;
  To->Vol += X.Vol;
  To->Invol += X.Invol;
  // As the writer reads a node (NodeRecordOf): with only sampled calls the
  // minimum can pass the maximum, and then both are the latter.
  u64 Min = X.Calls ? (X.Min < X.Max ? X.Min : X.Max) : ~0ull;
  if (Min < To->Min)
    To->Min = Min;
  if (X.Max > To->Max)
    To->Max = X.Max;
}
} // namespace

void CallTree::FoldFrom(const CallTree &From, u32 *Map) {
  u32 N = From.Size();
  Map[0] = 0;
  for (u32 I = 1; I < N; ++I) {
    const Node &X = *From.At(I);
    // Parents come before their children: X's parent is mapped.
    u32 To = FindOrInsert(Map[X.Parent], X.Fn, X.Site);
    Map[I] = To;
    Node *Y = At(To);
    AddStats(Y, X);
    Y->NextCheck = ~0ull; // nobody runs this node's probes
    for (u32 M = From.CopyLatency(X, fold_hist); M; M &= M - 1) {
      u32 First = u32(__builtin_ctz(M)) * kLatGroupBuckets;
      for (u32 B = First; B < First + kLatGroupBuckets; ++B) {
        if (!fold_hist[B])
          continue;
        u64 *Slot = LatencySlot(Y, B);
        if (!Slot)
          Slot = LatencySlotSlow(Y, B);
        *Slot += fold_hist[B];
      }
    }
  }
}

void CallTree::Destroy() {
  ReleaseIndex();
  u32 N = Size();
  for (u32 C = 0; C * kChunkNodes < N; ++C) {
    u32 Used = N - C * kChunkNodes < kChunkNodes ? N - C * kChunkNodes
                                                  : kChunkNodes;
    Recycle(Dir[C], kChunkNodes * sizeof(Node), Used * sizeof(Node));
  }
  Recycle(Dir, DirCap * sizeof(Node *), DirCap * sizeof(Node *));
  ReleaseLatency();
  Dir = nullptr;
  atomic_store(&DirPtr, 0, memory_order_relaxed);
  atomic_store(&NumNodes, 0, memory_order_relaxed);
}

} // namespace __activetime
